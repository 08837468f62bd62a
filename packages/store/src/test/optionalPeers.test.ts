import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const installed = join(repo, 'node_modules');
const optionalPeers = ['pg', '@kurrent/kurrentdb-client', 'openai', '@opentelemetry/api'];
const made: string[] = [];

/**
 * A project whose node_modules holds what the workspace installed, but for `missing`: the
 * packages link to the workspace's, and Node keeps the links (--preserve-symlinks), so a package
 * left out cannot be found through the workspace's own node_modules either.
 */
function projectWithout(missing: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-peers-'));
  made.push(dir);
  const modules = join(dir, 'node_modules');
  const link = (name: string, target: string) => {
    mkdirSync(join(modules, name, '..'), { recursive: true });
    symlinkSync(target, join(modules, name));
  };
  for (const entry of readdirSync(installed)) {
    const names = entry.startsWith('@')
      ? readdirSync(join(installed, entry)).map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of names) {
      if (name.startsWith('@agentlog/') || name.startsWith('.') || missing.includes(name)) continue;
      link(name, join(installed, name));
    }
  }
  for (const name of ['core', 'store', 'replay', 'console', 'cli'])
    link(`@agentlog/${name}`, join(repo, 'packages', name));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

/** Imports `entry` in a new process of that project, then runs `then` (module code) if given. */
async function importIn(dir: string, entry: string, then = '') {
  const script = `const m = await import(${JSON.stringify(entry)});\n${then}\nconsole.log('ok');`;
  try {
    const { stdout } = await run(
      process.execPath,
      [
        '--preserve-symlinks',
        '--conditions=source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ],
      { cwd: dir, timeout: 30_000 },
    );
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: unknown }).stderr) };
  }
}

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('optional peers: an entry loads only the driver it needs', () => {
  test('with every peer installed, every entry loads (the harness itself works)', async () => {
    const dir = projectWithout([]);
    for (const entry of [
      '@agentlog/store/postgres',
      '@agentlog/store/kurrentdb',
      '@agentlog/core/openai',
      '@agentlog/core/otel',
    ])
      expect(await importIn(dir, entry)).toMatchObject({ ok: true });
  }, 60_000);

  test.each([
    ['@agentlog/store/postgres', 'pg'],
    ['@agentlog/store/kurrentdb', '@kurrent/kurrentdb-client'],
    ['@agentlog/core/openai', 'openai'],
    ['@agentlog/core/otel', '@opentelemetry/api'],
  ])(
    'importing %s without %s is one line naming npm install',
    async (entry, driver) => {
      const result = await importIn(projectWithout([driver]), entry);
      expect(result.ok).toBe(false);
      expect(result.output).toContain(
        `AgentlogError: ${entry} needs the package ${driver}, which is not installed: run npm install ${driver}\n`,
      );
    },
    60_000,
  );

  test('the agentlog command on a postgres:// store without pg says to npm install pg', async () => {
    const dir = projectWithout(['pg']);
    const main = join(dir, 'node_modules/@agentlog/cli/src/main.ts');
    const flags = ['--preserve-symlinks', '--preserve-symlinks-main', '--conditions=source'];
    const args = [
      ...flags,
      '--import',
      'tsx',
      main,
      'list',
      '--store',
      'postgres://u:pw@127.0.0.1:1/db',
    ];
    const failure = await run(process.execPath, args, { cwd: dir, timeout: 30_000 }).then(
      () => undefined,
      (error: unknown) => error as { code?: unknown; stderr?: unknown },
    );
    expect(failure?.code).toBe(2);
    expect(String(failure?.stderr)).toBe(
      'agentlog list: @agentlog/store/postgres needs the package pg, which is not installed: run npm install pg\n',
    );
  }, 60_000);

  test('without any optional peer, the default entries load and the SQLite store works', async () => {
    const dir = projectWithout(optionalPeers);
    const useSqlite = `
      const store = m.createSqliteEventStore({ path: ':memory:' });
      const event = { type: 'UserMessage', data: { text: 'hi' }, metadata: { eventId: 'e1', at: '1970-01-01T00:00:00.000Z', schemaVersion: 3 } };
      await store.appendToStream('s', [event], { expectedRevision: 'noStream' });
      if ((await store.readStream('s')).length !== 1) throw new Error('not stored');`;
    expect(await importIn(dir, '@agentlog/store', useSqlite)).toMatchObject({ ok: true });
    for (const entry of [
      '@agentlog/core',
      '@agentlog/core/testing',
      '@agentlog/store/sqlite',
      '@agentlog/store/jsonl',
      '@agentlog/replay',
    ])
      expect(await importIn(dir, entry), entry).toMatchObject({ ok: true });
  }, 90_000);
});
