import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-serve-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: string[]) => runCliIn(args, { cwd: dir });

describe('agentlog serve (the command)', () => {
  it('REV-3: refuses to start without a users file, with one line and exit 2, printing no token', async () => {
    expect(await cli(['serve'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog serve: serve needs --users <file>: the console admits only named reviewers\n',
    });
    expect(await cli(['serve', '--users', 'absent.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog serve: no users file at absent.json\n',
    });
    writeFileSync(join(dir, 'empty.json'), '[]');
    expect((await cli(['serve', '--users', 'empty.json'])).stderr).toBe(
      'agentlog serve: the users file empty.json names no reviewer\n',
    );
    const secret = 'tiny-s3cr3t';
    writeFileSync(join(dir, 'weak.json'), JSON.stringify([{ name: 'ana', token: secret }]));
    const weak = await cli(['serve', '--users', 'weak.json']);
    expect(weak.code).toBe(2);
    expect(weak.stderr).toMatch(/token must be a string of 16 characters or more\n$/);
    expect(weak.stderr).not.toContain(secret);
  });

  it('refuses a bad port and a missing store before listening', async () => {
    writeFileSync(
      join(dir, 'users.json'),
      JSON.stringify([{ name: 'ana', token: 'x'.repeat(32) }]),
    );
    expect((await cli(['serve', '--users', 'users.json', '--port', '70000'])).stderr).toBe(
      'agentlog serve: --port must be a whole number from 0 to 65535\n',
    );
    expect(
      (await cli(['serve', '--users', 'users.json', '--store', 'missing.db', '--port', '0']))
        .stderr,
    ).toBe('agentlog serve: no agentlog database at missing.db\n');
  });
});
