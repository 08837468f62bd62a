import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliIn } from './test/runCliIn.js';

const root = resolve(import.meta.dirname, '../../..');
const sessions = join(root, 'fixtures/sessions');
const agents = join(root, 'fixtures/agents.ts');
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], options: { cwd?: string; isTTY?: boolean } = {}) {
  return runCliIn(args, {
    cwd: options.cwd ?? dir,
    env: { NO_COLOR: '1' },
    isTTY: options.isTTY ?? false,
  });
}

/** A copy of a fixture session in the temp folder, with `edit` applied to its text. */
function copyOf(name: string, edit: (text: string) => string = (text) => text): string {
  const path = join(dir, name);
  writeFileSync(path, edit(readFileSync(join(sessions, name), 'utf8')));
  return path;
}

/** Writes an `--agent` module into the temp folder. */
function agentModule(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}
const scenariosUrl = pathToFileURL(join(root, 'fixtures/scenarios/index.ts')).href;

describe('agentlog replay', () => {
  it('RPL-2 replays every fixture session with fixtures/agents.ts: 14 ✓, exit 0', async () => {
    const { code, stdout, stderr } = await cli(
      ['replay', 'fixtures/sessions', '--agent', 'fixtures/agents.ts'],
      { cwd: root },
    );
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('✓ fixtures/sessions/'))).toHaveLength(14);
    expect(lines.at(-1)).toBe('14 replayed, 0 diverged');
    expect(code).toBe(0);
  });

  it('replays with the live tools too, and shows a progress bar on stderr only on a terminal', async () => {
    const { code, stdout, stderr } = await cli(
      ['replay', sessions, '--agent', agents, '--tools', 'live'],
      { isTTY: true },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/14 replayed, 0 diverged\n$/);
    expect(stderr).toContain('\r[');
    expect(stderr).toContain('] 14/14');
    expect(stdout).not.toContain('\r');
  });

  it('a tampered tool output diverges: exit 1, the first line of the divergence and the diff', async () => {
    const tampered = copyOf('HITL-9-refund-with-payload.jsonl', (text) =>
      text.replace('Refunded 2500 cents for order A-17', 'Refunded 9999 cents for order A-17'),
    );
    const hitl4 = join(sessions, 'HITL-4-resume-after-approval.jsonl');
    // With the live tool, the produced output differs from the tampered one.
    const live = await cli(['replay', tampered, hitl4, '--agent', agents, '--tools', 'live']);
    expect(live.code).toBe(1);
    expect(live.stdout).toMatch(
      /^✗ .*HITL-9-refund-with-payload\.jsonl: the replayed stream; revision diverges at 12:$/m,
    );
    expect(live.stdout).toMatch(/^ {4}\$\.data\.output\.text$/m);
    expect(live.stdout).toContain('      - "Refunded 9999 cents for order A-17"');
    expect(live.stdout).toContain('      + "Refunded 2500 cents for order A-17"');
    expect(live.stdout).toMatch(/^✓ .*HITL-4-resume-after-approval\.jsonl$/m);
    expect(live.stdout).toMatch(/\n1 replayed, 1 diverged\n$/);
    // With recorded tools, the next request no longer matches the recorded fingerprint.
    const recorded = await cli(['replay', tampered, '--agent', agents]);
    expect(recorded.code).toBe(1);
    const [first, diff] = recorded.stdout.split('\n');
    expect(first).toMatch(/: the request to the model; completion diverges at 1:$/);
    expect(diff).toMatch(/^ {4}\S/);
  });

  it('REV-1 a divergence shows the recorded text with its bidi and C1 characters made visible', async () => {
    const tampered = copyOf('HITL-9-refund-with-payload.jsonl', (text) =>
      text.replace('Refunded 2500 cents for order A-17', 'Refunded 9999\u202e71-A\u009b2J cents'),
    );
    const live = await cli(['replay', tampered, '--agent', agents, '--tools', 'live']);
    expect(live.code).toBe(1);
    expect(live.stdout).toContain('      - "Refunded 9999\\u202e71-A\\u009b2J cents"');
    expect(live.stdout).not.toMatch(/[\u0080-\u009f\u202e]/u);
  });

  it('a recorded call of a tool the agent no longer has is a divergence, not a crash', async () => {
    const module = agentModule(
      'withoutEcho.ts',
      `import { scenarios } from ${JSON.stringify(scenariosUrl)};
// HITL-4's agent has guess_a_number but no echo tool, which the HITL-5 session calls.
export const agentFor = () => scenarios.find((s) => s.rule === 'HITL-4')?.agent();
export const streamIdFor = () => 'hitl-5';
`,
    );
    const { code, stdout } = await cli([
      'replay',
      join(sessions, 'HITL-5-shadowed-approval.jsonl'),
      '--agent',
      module,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^✗ .*HITL-5-shadowed-approval\.jsonl: .*diverges at/m);
    expect(stdout).toMatch(/0 replayed, 1 diverged\n$/);
  });

  it('a line that is not JSONL: exit 2, naming the file and the line', async () => {
    const broken = copyOf('STOP-2-stop-with-schema.jsonl', (text) => {
      const lines = text.split('\n');
      lines[2] = '{"type": "RunStarted", oops';
      return lines.join('\n');
    });
    const { code, stdout } = await cli(['replay', broken, '--agent', agents]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^✗ .*STOP-2-stop-with-schema\.jsonl, line 3: it is not JSON/m);
    expect(stdout).toMatch(/0 replayed, 0 diverged, 1 could not be replayed\n$/);
  });

  it('a stream whose events contradict each other: exit 2 with the InvalidEventError message', async () => {
    const contradictory = copyOf('HITL-4-resume-after-approval.jsonl', (text) =>
      text.replace('"toolCallId":"g1","output"', '"toolCallId":"zz","output"'),
    );
    const { code, stdout } = await cli(['replay', contradictory, '--agent', agents]);
    expect(code).toBe(2);
    expect(stdout).toMatch(
      /: event ToolCallCompleted at revision \d+ is invalid: tool call zz cannot be answered/,
    );
  });

  it('a session the --agent module has no agent for is bad input', async () => {
    cpSync(join(sessions, 'STOP-4-default-stop-wins.jsonl'), join(dir, 'stranger.jsonl'));
    const { code, stdout } = await cli(['replay', 'stranger.jsonl', '--agent', agents]);
    expect(code).toBe(2);
    expect(stdout).toContain('✗ stranger.jsonl: the --agent module has no agent for this session');
  });

  it('a missing path, a missing or invalid --agent, a bad --tools: one line, exit 2, no stack trace', async () => {
    const notAModule = agentModule('nothing.mjs', 'export const agentFor = 42;\n');
    const throwing = agentModule('throwing.mjs', 'throw new Error("boom at load");\n');
    const cases: [string[], string][] = [
      [
        ['replay', 'nowhere/x.jsonl', '--agent', agents],
        'agentlog replay: no such file or folder: nowhere/x.jsonl',
      ],
      [
        ['replay', sessions],
        'agentlog replay: missing --agent <module>; see agentlog replay --help',
      ],
      [
        ['replay', '--agent', agents],
        'agentlog replay: missing <file.jsonl|folder>; see agentlog replay --help',
      ],
      [['replay', sessions, '--agent', 'nope.ts'], 'agentlog replay: no --agent module at nope.ts'],
      [
        ['replay', sessions, '--agent', notAModule],
        `agentlog replay: the --agent module ${notAModule} does not export agentFor(file, events): AgentBuilder | undefined`,
      ],
      [
        ['replay', sessions, '--agent', throwing],
        `agentlog replay: cannot load the --agent module ${throwing}: boom at load`,
      ],
      [
        ['replay', sessions, '--agent', agents, '--tools', 'fake'],
        "agentlog replay: --tools must be recorded or live, not 'fake'",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result, args.join(' ')).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
    }
  });
});
