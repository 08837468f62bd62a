import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import {
  hiddenCommand,
  hostileBy,
  hostileNote,
  hostileSession,
  rawHidden,
} from './test/hostileSession.js';
import { runCliIn } from './test/runCliIn.js';

// Every command that prints text from a stream, on one stream full of hostile text (SPEC REV-1).
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-hostile-'));
const db = join(dir, 'hostile.db');
const streamId = 'hostile';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string> = { NO_COLOR: '1' }) {
  const run = await runCliIn([...args, '--store', db], { cwd: dir, env });
  return { ...run, all: run.stdout + run.stderr };
}

/** What each command printed before the refusal (s1 waiting) and after the run went on. */
const seen: Record<string, string> = {};

beforeAll(async () => {
  const store = createSqliteEventStore({ path: db });
  const agent = await hostileSession(store, streamId);
  seen['pending'] = (await cli(['pending'])).all;
  seen['show waiting'] = (await cli(['show', streamId, 's1'])).all;
  const refused = await cli(['refuse', streamId, 's1', '--by', hostileBy, '--note', hostileNote]);
  expect(refused.code).toBe(0);
  seen['refuse'] = refused.all;
  seen['list refused'] = (await cli(['list'])).all;
  await agent.run();
  store.close();
  seen['inspect'] = (await cli(['inspect', streamId])).all;
  seen['show refused'] = (await cli(['show', streamId, 's1'])).all;
  seen['show echo'] = (await cli(['show', streamId, 'e1'])).all;
  seen['list'] = (await cli(['list'])).all;
  const report = await cli(['report', streamId, '--html', 'hostile.html']);
  expect(report.code).toBe(0);
  seen['report'] = report.all;
  seen['report page'] = readFileSync(join(dir, 'hostile.html'), 'utf8');
});

describe('REV-1 text from a model, a tool or a reviewer is shown visibly', () => {
  it.each([
    'pending',
    'show waiting',
    'refuse',
    'list refused',
    'inspect',
    'show refused',
    'show echo',
    'list',
    'report',
    'report page',
  ])('REV-1 %s prints no raw ESC, C1, bidi or zero-width character', (name) => {
    const text = seen[name] ?? '';
    expect(text).not.toBe('');
    expect(text).not.toMatch(rawHidden);
  });

  it('REV-1 show prints the hidden curl line and the escapes that would have erased it', () => {
    const text = seen['show waiting'] ?? '';
    expect(text).toContain(`    ${hiddenCommand}\n`);
    expect(text).toContain('    \\u001b[1A\\u001b[2Knpm test\n');
    // The one-line field, in the JSON: its OSC title, RTL override, C1 CSI and zero-width space.
    expect(text).toContain(
      '"title": "\\u001b]0;pwned\\u0007 run \\u202etxt.exe \\u009b2J zero\\u200bwidth"',
    );
  });

  it('REV-1 pending lists the call with its arguments summarised and nothing raw', () => {
    expect(seen['pending']).toBe('hostile  s1  run_script  <2 lines>\n');
  });

  it("REV-1 refuse confirms with the decider's name made visible", () => {
    expect(seen['refuse']).toMatch(
      /^refused run_script \(s1\) in hostile by ana\\u001b\[8m at revision \d+\n$/,
    );
  });

  it('REV-1 inspect shows the answer, model, decision, note and tool output with visible escapes', () => {
    const text = seen['inspect'] ?? '';
    expect(text).toContain('model: "Running the tests\\u001b]0;pwned\\u0007" + 1 tool call(s)');
    expect(text).toContain(' · gpt\\u202e-4o');
    expect(text).toContain('"please run the tests \\u202e now"');
    // The CLI's decision is stamped by the wall clock: any time.
    expect(text).toMatch(
      /✗ refused by ana\\u001b\[8m at \d\d:\d\d:\d\d — "fine\\u202e by me\\u001b\[2K" · run_script \(s1\)/,
    );
    expect(text).toContain('✓ echo: done\\r\\u001b[2Kall good\\u202e\\u200b');
    expect(text).toContain('"bye\\u009b31m\\u200b"');
  });

  it('REV-1 show prints the decision note and a tool output line by line, visibly', () => {
    expect(seen['show refused']).toContain('✗ refused by ana\\u001b[8m\n');
    expect(seen['show refused']).toContain('note: fine\\u202e by me\\u001b[2K\n');
    expect(seen['show echo']).toContain('✓ output: done\\r\\u001b[2Kall good\\u202e\\u200b\n');
  });

  it('REV-1 the report page shows the hidden line and every escape as text', () => {
    const page = seen['report page'] ?? '';
    expect(page).toContain(hiddenCommand);
    expect(page).toContain('\\u001b[1A\\u001b[2Knpm test');
    expect(page).toContain('ana\\u001b[8m');
    expect(page).toContain('fine\\u202e by me\\u001b[2K');
    expect(page).toContain('gpt\\u202e-4o');
  });

  it('REV-1 with colours on, the only escapes inspect and show print are their own colours', async () => {
    for (const args of [
      ['inspect', streamId],
      ['show', streamId, 's1'],
    ]) {
      const { stdout } = await cli(args, { FORCE_COLOR: '1' });
      expect(stdout).toMatch(/\u001b\[\d+m/);
      expect(stdout.replace(/\u001b\[(?:1|2|22|31|32|33|35|36|39)m/g, '')).not.toMatch(rawHidden);
      expect(stdout).toContain('\\u001b]0;pwned\\u0007');
    }
  });

  it('REV-1 an event time that is not an ISO time is shown visibly by inspect and show', async () => {
    const events = (await createSqliteEventStore({ path: db }).readStream(streamId)).map((event) =>
      JSON.stringify(
        event.type === 'FeedbackReceived'
          ? { ...event, metadata: { ...event.metadata, at: 'soon\u001b[2J\u202e' } }
          : event,
      ),
    );
    writeFileSync(join(dir, 'odd-time.jsonl'), `${events.join('\n')}\n`);
    const inspect = await runCliIn(['inspect', 'odd-time.jsonl'], { cwd: dir, env: {} });
    const show = await runCliIn(['show', 'odd-time.jsonl', 's1'], { cwd: dir, env: {} });
    expect(inspect.stdout).toContain('✗ refused by ana\\u001b[8m at soon\\u001b[2J\\u202e — ');
    expect(show.stdout).toMatch(/^ {2}#8 +soon\\u001b\[2J\\u202e {2}✗ refused by/m);
    expect(inspect.stdout + show.stdout).not.toMatch(rawHidden);
  });

  it('REV-1 a stream id from a JSONL file name shows its bidi control visibly', async () => {
    const events = (await createSqliteEventStore({ path: db }).readStream(streamId)).map((event) =>
      JSON.stringify(event),
    );
    const file = 'run\u202egpj.jsonl';
    writeFileSync(join(dir, file), `${events.join('\n')}\n`);
    const { code, stdout } = await runCliIn(['inspect', file], { cwd: dir, env: {} });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^run\\u202egpj \(run\\u202egpj\.jsonl\) · \d+ events/);
    expect(stdout).not.toMatch(rawHidden);
  });
});
