import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliIn } from './test/runCliIn.js';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/replay/dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commands = [
  'inspect',
  'replay',
  'list',
  'pending',
  'show',
  'approve',
  'refuse',
  'fork',
  'report',
  'serve',
];

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

describe('agentlog', () => {
  it('--help lists every command', async () => {
    const { code, stdout, stderr } = await cli(['--help']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Usage: agentlog <command>/);
    for (const command of commands) expect(stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });

  it('every command has --help (and -h, and agentlog help <command>)', async () => {
    for (const command of commands) {
      for (const args of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
      ]) {
        const { code, stdout, stderr } = await cli(args);
        expect({ code, stderr }, args.join(' ')).toEqual({ code: 0, stderr: '' });
        expect(stdout).toMatch(new RegExp(`^Usage: agentlog ${command} `));
      }
    }
  });

  it('an unknown command or option, or no command at all: exit 2 with one line (usage for none)', async () => {
    expect(await cli(['frobnicate'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "agentlog: unknown command 'frobnicate'; run agentlog --help\n",
    });
    expect(await cli(['--verbose'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "agentlog: unknown option '--verbose'; run agentlog --help\n",
    });
    expect(await cli(['inspect', 'x', '--colour'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "agentlog inspect: unknown option '--colour'; see agentlog inspect --help\n",
    });
    expect(await cli(['inspect', 'a', 'b'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "agentlog inspect: unexpected argument 'b'; see agentlog inspect --help\n",
    });
    expect(await cli(['pending', '--store'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "agentlog pending: option '--store <where>' argument missing; see agentlog pending --help\n",
    });
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: agentlog <command>/);
  });

  it('read commands never create a missing SQLite file', async () => {
    for (const args of [['inspect', 's'], ['pending'], ['report', 's', '--html', 'r.html']]) {
      const { code, stderr } = await cli([...args, '--store', 'db/missing.db']);
      expect(code).toBe(2);
      expect(stderr).toBe(`agentlog ${args[0]}: no agentlog database at db/missing.db\n`);
    }
    expect(existsSync(join(dir, 'db'))).toBe(false);
  });

  it('--version prints the package version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('the built bin runs as a child process', async (context) => {
    context.skip(!existsSync(bin), `${bin} is missing: run npm run build first`);
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [bin, '--help'], { cwd: dir });
    expect(stdout).toMatch(/^Usage: agentlog <command>/);
    const failed = await run(process.execPath, [bin, 'inspect', 'nope'], { cwd: dir }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed).toMatchObject({
      code: 2,
      stderr: 'agentlog inspect: no agentlog database at .agentlog/agentlog.db\n',
    });
  });

  // Seven node processes in a row: sized for a loaded 2-core machine, not for a quiet one.
  it(
    '--version and --help load no store adapter: no SQLite, PostgreSQL or KurrentDB driver',
    { timeout: 120_000 },
    async (context) => {
      context.skip(!existsSync(bin), `${bin} is missing: run npm run build first`);
      // A module hook that prints every module the bin resolves, one `loaded <url>` line each.
      const hooks = join(dir, 'hooks.mjs');
      writeFileSync(
        hooks,
        // writeSync: the hooks run on their own thread, whose buffered writes may be lost when the
        // main thread exits first.
        `import { writeSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        writeSync(2, 'loaded ' + resolved.url + '\\n');
        return resolved;
      }`,
      );
      const register = join(dir, 'register.mjs');
      writeFileSync(
        register,
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
      );
      const run = promisify(execFile);
      const loaded = async (args: string[]) => {
        // A failing command (exit 2) still reports what it loaded.
        const { stdout, stderr } = await run(
          process.execPath,
          ['--import', register, bin, ...args],
          {
            cwd: dir,
          },
        ).catch((error: { stdout: string; stderr: string }) => error);
        const modules = stderr.split('\n').filter((line) => line.startsWith('loaded '));
        expect(modules.length, 'the hook saw the modules').toBeGreaterThan(0);
        return { stdout, modules };
      };
      const driver = /\/packages\/store\/|better-sqlite3|\/node_modules\/pg\/|@kurrent/;
      const version = await loaded(['--version']);
      expect(version.stdout).toBe('0.1.0\n');
      expect(version.modules.filter((line) => driver.test(line))).toEqual([]);
      // --version does not even load the commands, nor @agentlog/core.
      expect(version.modules.filter((line) => /\/packages\/core\//.test(line))).toEqual([]);
      for (const args of [['--help'], ['help', 'list'], ['show', '--help']]) {
        const help = await loaded(args);
        expect(help.stdout).toMatch(/^Usage: agentlog /);
        expect(
          help.modules.filter((line) => driver.test(line)),
          args.join(' '),
        ).toEqual([]);
      }
      // A command loads only the adapter its store needs: a JSONL file no database driver, a
      // SQLite file no PostgreSQL or KurrentDB driver.
      const session = join(
        import.meta.dirname,
        '../../../fixtures/sessions/STOP-2-stop-with-schema.jsonl',
      );
      const jsonl = await loaded(['inspect', session]);
      expect(jsonl.stdout).toContain('■');
      const databases = /better-sqlite3|\/node_modules\/pg\/|@kurrent/;
      expect(jsonl.modules.filter((line) => databases.test(line))).toEqual([]);
      const db = join(dir, 'only-sqlite.db');
      const { createSqliteEventStore } = await import('@agentlog/store/sqlite');
      createSqliteEventStore({ path: db }).close();
      const sqlite = await loaded(['list', '--store', db]);
      expect(
        sqlite.modules.some((line) => /\/packages\/store\/(dist|src)\/sqlite\//.test(line)),
        sqlite.modules.join('\n'),
      ).toBe(true);
      expect(sqlite.modules.filter((line) => /\/node_modules\/pg\/|@kurrent/.test(line))).toEqual(
        [],
      );
      // A kurrentdb:// URL loads the KurrentDB adapter and its client, neither SQLite nor pg (no
      // server listens on port 1: the command fails, having loaded what it needed).
      const kurrent = await loaded(['list', '--store', 'kurrentdb://127.0.0.1:1?tls=false']);
      expect(
        kurrent.modules.some((line) => /\/packages\/store\/(dist|src)\/kurrent\//.test(line)),
        kurrent.modules.join('\n'),
      ).toBe(true);
      expect(kurrent.modules.some((line) => /@kurrent\/kurrentdb-client/.test(line))).toBe(true);
      expect(
        kurrent.modules.filter((line) =>
          /better-sqlite3|\/node_modules\/pg\/|\/sqlite\//.test(line),
        ),
      ).toEqual([]);
    },
  );
});
