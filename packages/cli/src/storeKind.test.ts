import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { withoutPassword } from './openStore.js';
import { storeKind } from './storeKind.js';
import { runCliIn } from './test/runCliIn.js';

async function cli(args: string[]) {
  return runCliIn(args);
}

/** A local port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('--store', () => {
  it('names its backend by URL scheme or file name', () => {
    expect(storeKind('kurrentdb://localhost:2113?tls=false')).toBe('kurrentdb');
    expect(storeKind('KurrentDB://localhost:2113')).toBe('kurrentdb');
    expect(storeKind('kurrent://localhost:2113')).toBe('kurrentdb');
    expect(storeKind('kdb://localhost:2113')).toBe('kurrentdb');
    expect(storeKind('kurrentdb+discover://a:2113,b:2113')).toBe('kurrentdb');
    expect(storeKind('postgres://u@h/db')).toBe('postgres');
    expect(storeKind('postgresql://u@h/db')).toBe('postgres');
    expect(storeKind('runs/session.JSONL')).toBe('jsonl');
    expect(storeKind('.agentlog/agentlog.db')).toBe('sqlite');
    expect(storeKind('C:\\data\\agentlog.db')).toBe('sqlite');
  });

  it('an unknown URL scheme is one line listing the accepted forms', async () => {
    const { code, stdout, stderr } = await cli(['list', '--store', 'mysql://root:pw@h/db']);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toBe(
      'agentlog list: --store does not accept mysql:// URLs; give a SQLite file path, a ' +
        'postgres:// or postgresql:// URL, a kurrentdb:// (or kurrent://, kdb://, ' +
        'kurrentdb+discover://) URL, or a .jsonl file\n',
    );
    expect(stderr).not.toContain('pw');
  });

  it('masks the password of a database URL', () => {
    expect(withoutPassword('kurrentdb://admin:changeit@db:2113?tls=false')).toBe(
      'kurrentdb://admin:***@db:2113?tls=false',
    );
    expect(withoutPassword('postgres://u:p4ss@h/db?password=p4ss&ssl=1')).toBe(
      'postgres://u:***@h/db?password=***&ssl=1',
    );
    expect(withoutPassword('postgres://h/db')).toBe('postgres://h/db');
  });

  it('kurrentdb:// opens KurrentDB: an unreachable one fails within seconds, naming the store, not its password', async () => {
    const port = await closedPort();
    for (const command of [['list'], ['pending'], ['inspect', 'some-stream']]) {
      const started = Date.now();
      const { code, stdout, stderr } = await cli([
        ...command,
        '--store',
        `kurrentdb://admin:s3cret-pw@127.0.0.1:${port}?tls=false`,
      ]);
      expect(Date.now() - started, command.join(' ')).toBeLessThan(5_000);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toMatch(
        new RegExp(
          `^agentlog ${command[0] ?? ''}: KurrentDB store 127\\.0\\.0\\.1:${port}\\b.*\\n$`,
        ),
      );
      expect(stderr.split('\n')).toHaveLength(2);
      expect(stderr).not.toContain('s3cret-pw');
    }
  }, 20_000);
});
