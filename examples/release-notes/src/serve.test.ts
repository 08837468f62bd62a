import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

/**
 * `npm start -- --serve` driven as a person would at the console, over HTTP: each time the run
 * prints a decide link, `decide` gets the console's URL, the printed token and the call.
 */
async function serve(
  decide: (
    at: Console,
    call: { streamId: string; toolCallId: string },
    round: number,
  ) => Promise<void>,
  options: { dir?: string; signal?: AbortSignal } = {},
) {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'agentlog-serve-')));
  let text = '';
  let round = 0;
  const decisions: Promise<void>[] = [];
  const code = await runCli(['--by', 'ana', '--serve'], {
    input: new PassThrough(),
    write: (chunk) => {
      text += chunk;
      const link = /⏸ decide on (http:\/\/[^/]+)\/runs\/([^/]+)\/calls\/(\S+)\n$/.exec(chunk);
      if (!link) return;
      const token = /sign in as ana with the token (\S+)\n/.exec(text)?.[1];
      const at: Console = {
        url: link[1]!,
        token: token!,
        usersFile: join(dir, '.agentlog/console-users.json'),
      };
      round += 1;
      decisions.push(
        decide(
          at,
          { streamId: decodeURIComponent(link[2]!), toolCallId: decodeURIComponent(link[3]!) },
          round,
        ),
      );
    },
    env: {},
    cwd: dir,
    isTTY: false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  await Promise.all(decisions);
  return { code, text, dir, notes: join(dir, '.agentlog/release-notes/RELEASE_NOTES.md') };
}

interface Console {
  readonly url: string;
  readonly token: string;
  readonly usersFile: string;
}

async function api(at: Console, path: string, body?: unknown): Promise<Response> {
  return fetch(`${at.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${at.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('npm start -- --serve: the web console is the reviewer', () => {
  it('REV-3 a fresh token signs in by Bearer; a refusal with a reason revises, an approval writes; the console closes', async () => {
    const seen: Console[] = [];
    const { code, text, notes, dir } = await serve(async (at, call, round) => {
      seen.push(at);
      // The users file holds the one reviewer, for the owner's eyes only.
      expect(statSync(at.usersFile).mode & 0o777).toBe(0o600);
      expect(at.token.length).toBeGreaterThanOrEqual(32);
      const unsigned = await fetch(`${at.url}/api/pending`);
      expect(unsigned.status).toBe(401);
      const pending = (await (await api(at, '/api/pending')).json()) as {
        pending: { streamId: string; toolCallId: string; tool: string }[];
      };
      expect(pending.pending).toEqual([
        expect.objectContaining({ ...call, tool: 'write_changelog' }),
      ]);
      const decided = await api(
        at,
        '/api/decisions',
        round === 1
          ? { ...call, decision: 'refuse', reason: 'Add a haiku.', note: 'from the test' }
          : { ...call, decision: 'approve' },
      );
      expect(decided.status).toBe(201);
    });
    expect(code).toBe(0);
    expect(text).toMatch(/reviewer's console on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).toContain('  ✗ refused by ana: Add a haiku.\n');
    expect(text).toContain('  ✓ approved by ana\n');
    expect(text).toContain(
      'the run left the offline recordings: the offline drafter (deterministic rules, not a model) answers from here',
    );
    expect(text).toContain('  write_changelog ✓ wrote RELEASE_NOTES.md\n');
    expect(await readFile(notes, 'utf8')).toContain("## Reviewer's request\n- Add a haiku.\n");
    // Two tokens of two runs differ; this run's are gone with its console.
    expect(seen).toHaveLength(2);
    expect(existsSync(join(dir, '.agentlog/console-users.json'))).toBe(false);
    await expect(fetch(`${seen[0]!.url}/api/pending`)).rejects.toThrow();
  });

  it('an approval at the console stays on the recorded path; a refusal without a reason rejects', async () => {
    const approved = await serve(async (at, call) => {
      expect((await api(at, '/api/decisions', { ...call, decision: 'approve' })).status).toBe(201);
    });
    expect(approved.code).toBe(0);
    expect(approved.text).not.toContain('the run left the offline recordings');
    expect(await readFile(approved.notes, 'utf8')).toContain('# 0.34.0');

    const rejected = await serve(async (at, call) => {
      expect((await api(at, '/api/decisions', { ...call, decision: 'refuse' })).status).toBe(201);
    });
    expect(rejected.code).toBe(0);
    expect(rejected.text).toContain('  ✗ rejected by ana\n');
    expect(existsSync(rejected.notes)).toBe(false);
  });

  it('Ctrl-C while the console waits: the call keeps waiting; the next npm start resumes it at the terminal', async () => {
    const interrupt = new AbortController();
    const first = await serve(
      () => {
        interrupt.abort();
        return Promise.resolve();
      },
      { signal: interrupt.signal },
    );
    expect(first.code).toBe(130);
    expect(first.text).toContain('still waits for approval; `npm start` resumes it');
    expect(existsSync(join(first.dir, '.agentlog/console-users.json'))).toBe(false);
    const out: string[] = [];
    const resumed = await runCli(['--by', 'ana'], {
      input: Readable.from(['y\n']),
      write: (chunk) => out.push(chunk),
      env: {},
      cwd: first.dir,
      isTTY: false,
    });
    expect(resumed).toBe(0);
    expect(out.join('')).toContain('resuming the unfinished stream release-notes-v0.34.0-');
    expect(await readFile(first.notes, 'utf8')).toContain('# 0.34.0');
  });

  it('--serve with --yes is refused: the console reviewer decides', async () => {
    const out: string[] = [];
    const code = await runCli(['--serve', '--yes'], {
      input: new PassThrough(),
      write: (chunk) => out.push(chunk),
      env: {},
      cwd: await mkdtemp(join(tmpdir(), 'agentlog-serve-')),
      isTTY: false,
    });
    expect(code).toBe(2);
    expect(out.join('')).toBe(
      'error: --serve and --yes exclude each other: the console reviewer decides\n',
    );
  });
});
