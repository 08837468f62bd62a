import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendJsonl } from './appendJsonl.js';
import { readJsonl } from './readJsonl.js';
import { withJsonlLock } from './withJsonlLock.js';
import { rejection } from '../test/rejection.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-jsonl-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const worker = join(import.meta.dirname, '..', 'test', 'jsonlAppendWorker.ts');

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly message?: string;
}

/** Forks one appending process per name, starts them together, resolves with their outcomes. */
async function appendFromProcesses(
  path: string,
  names: readonly string[],
  count: number,
  bytes: number,
): Promise<Outcome[]> {
  const children = names.map((name) =>
    fork(worker, [path, name, String(count), String(bytes)], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const outcomes = children.map(
    (child) =>
      new Promise<Outcome>((resolve, reject) => {
        child.on('message', (message: Outcome & { ready?: boolean }) => {
          if (message.ready !== true) resolve(message);
        });
        child.once('exit', (code) =>
          reject(new Error(`append worker exited with ${String(code)} before reporting`)),
        );
      }),
  );
  await Promise.all(
    children.map((child) => new Promise<void>((resolve) => child.once('message', () => resolve()))),
  );
  for (const child of children) child.send('go');
  return Promise.all(outcomes);
}

/** The pid of a process that ran and ended: nothing on this host runs under it now. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
    encoding: 'utf8',
  });
  return Number(result.stdout.trim());
}

describe('appendJsonl from several processes', () => {
  it('two processes appending 1 MB events to one file at once leave every line whole, every event once', async () => {
    const path = join(dir, 'shared.jsonl');
    const count = 6;
    const outcomes = await appendFromProcesses(path, ['a', 'b'], count, 1_048_576);
    expect(outcomes).toEqual([
      { name: 'a', ok: true },
      { name: 'b', ok: true },
    ]);
    const { events, tornLine } = await readJsonl(path);
    expect(tornLine).toBeUndefined();
    const ids = events.map((event) => event.metadata.eventId);
    const expected = ['a', 'b'].flatMap((name) =>
      Array.from({ length: count }, (_, n) => `${name}-${n}`),
    );
    expect([...ids].sort()).toEqual([...expected].sort());
    // Each writer's events are in its own order, and each line is one writer's bytes only.
    for (const name of ['a', 'b']) {
      expect(ids.filter((id) => id.startsWith(`${name}-`))).toEqual(
        expected.filter((id) => id.startsWith(`${name}-`)),
      );
    }
    for (const event of events) {
      const { writer, padding } = event.data as { writer: string; padding: string };
      expect(padding).toBe(writer.repeat(1_048_576));
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  }, 60_000);
});

describe('withJsonlLock', () => {
  it('takes over the lock of a process of this host that no longer runs', async () => {
    const path = join(dir, 'stale.jsonl');
    const lock = `${path}.lock`;
    writeFileSync(
      lock,
      JSON.stringify({ pid: deadPid(), host: hostname(), since: '2025-01-02T03:04:05.678Z' }),
    );
    await appendJsonl(path, [
      {
        type: 'Numbered',
        data: { n: 0 },
        metadata: { eventId: 'e-0', at: '2025-01-02T03:04:05.678Z', schemaVersion: 1, revision: 0 },
      },
    ]);
    expect((await readJsonl(path)).events).toHaveLength(1);
    expect(readdirSync(dir)).not.toContain('stale.jsonl.lock');
  });

  it('refuses after waiting for a live writer, naming its process, host and lock file; the lock stays', async () => {
    const path = join(dir, 'held.jsonl');
    const lock = `${path}.lock`;
    const held = JSON.stringify({
      pid: process.pid,
      host: 'build-7',
      since: '2025-01-02T03:04:05.678Z',
    });
    writeFileSync(lock, held);
    let ran = false;
    const error = await rejection(
      withJsonlLock(
        path,
        () => {
          ran = true;
          return Promise.resolve();
        },
        200,
      ),
    );
    expect(ran).toBe(false);
    expect(error.message).toBe(
      `another writer is writing it: process ${process.pid} on host build-7, since 2025-01-02T03:04:05.678Z (lock file ${lock}); if no such process writes it, delete the lock file`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(held);
  });

  it('lets two calls of one process take turns, and removes the lock after a failed one', async () => {
    const path = join(dir, 'turns.jsonl');
    const order: string[] = [];
    const step = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(`${name} out`);
    };
    await Promise.all([withJsonlLock(path, step('first')), withJsonlLock(path, step('second'))]);
    // Which call gets the lock first is a race; that they never overlap is the rule.
    const [winner, loser] = order[0] === 'first in' ? ['first', 'second'] : ['second', 'first'];
    expect(order).toEqual([`${winner} in`, `${winner} out`, `${loser} in`, `${loser} out`]);
    await expect(withJsonlLock(path, () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(readdirSync(dir)).not.toContain('turns.jsonl.lock');
  });
});
