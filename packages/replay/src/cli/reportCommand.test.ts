import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, approvalRequired, tool, ToolFeedback } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';
import { z } from 'zod';
import { bufferedIo } from './bufferedIo.js';
import { runCli } from './runCli.js';

const session = resolve(
  import.meta.dirname,
  '../../../../fixtures/sessions/HITL-9-refund-with-payload.jsonl',
);
const chromium = '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out = bufferedIo({ cwd: dir });
  const code = await runCli(args, out.io);
  return { code, stdout: out.stdout(), stderr: out.stderr() };
}

/** The visible text of an HTML document, roughly: no tags, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('agentlog report', () => {
  it('writes a self-contained HTML page: stream, stop reason, messages, tool calls, approvals', async () => {
    const result = await cli(['report', session, '--html', 'out/hitl-9.html']);
    expect(result).toEqual({
      code: 0,
      stdout: `wrote out/hitl-9.html (HITL-9-refund-with-payload, 16 events)\n`,
      stderr: '',
    });
    const html = readFileSync(join(dir, 'out/hitl-9.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|@import|url\(/i);
    const text = textOf(html);
    expect(text).toContain('Stream HITL-9-refund-with-payload');
    expect(text).toContain('Stopped: noNewMessages (assistantAnswered)');
    expect(text).toContain('Refunded 2500 cents for order A-17');
    expect(text).toMatch(/approved lead/);
    expect(text).toContain('"amount_cents": 10000');
    expect(text).toContain('user Refund order A-17');
  });

  it('escapes every text taken from the stream', async () => {
    const db = join(dir, 'escape.db');
    const store = createSqliteEventStore({ path: db });
    const echo = tool({
      name: 'echo',
      description: 'Echoes.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => `<img src=x onerror=alert(1)>${text}`,
    });
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([{ name: 'echo', args: { text: '</pre><script>' }, id: 'e1' }]),
          textResponse('<b>done</b>'),
        ]),
      )
      .tools([approvalRequired(echo)])
      .store(store)
      .streamId('esc<ape>')
      .build();
    await agent.query('<script>alert("hi")</script>');
    await agent.context().feedbackReceived({ id: 'e1', name: 'echo' }, ToolFeedback.approved(), {
      by: '<ana & bo>',
      note: '"quoted" & <em>',
    });
    await agent.run();
    store.close();
    expect((await cli(['report', 'esc<ape>', '--store', db, '--html', 'escape.html'])).code).toBe(
      0,
    );
    const html = readFileSync(join(dir, 'escape.html'), 'utf8');
    expect(html).not.toMatch(/<script|<img|<em>|<b>done/i);
    const text = textOf(html);
    expect(text).toContain('<script>alert("hi")</script>');
    expect(text).toContain('<ana & bo>');
    expect(text).toContain('<img src=x onerror=alert(1)></pre><script>');
  });

  it('renders in headless Chromium: stream id, approval author, tool output, stop reason', async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const report = join(dir, 'chromium.html');
    expect((await cli(['report', session, '--html', report])).code).toBe(0);
    const profile = mkdtempSync(join(tmpdir(), 'agentlog-chromium-'));
    try {
      const { stdout } = await promisify(execFile)(
        chromium,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          `--user-data-dir=${profile}`,
          '--dump-dom',
          pathToFileURL(report).href,
        ],
        { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      );
      const text = textOf(stdout);
      expect(text).toContain('Stream HITL-9-refund-with-payload');
      expect(text).toMatch(/approved lead/);
      expect(text).toContain('Refunded 2500 cents for order A-17');
      expect(text).toContain('Stopped: noNewMessages (assistantAnswered)');
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
