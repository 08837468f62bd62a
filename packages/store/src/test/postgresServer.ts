// A PostgreSQL server of a test's own, which the test may stop and start again: made with
// scripts/postgres.sh (the same binaries, run as the `postgres` user when we are root) in a
// folder next to $AGENTLOG_PG_DIR, and restarted with pg_ctl on the port it was given first.
// It is never the shared server of AGENTLOG_POSTGRES_URL: other test files use that one at the
// same time, and a restart would break them.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = join(import.meta.dirname, '..', '..', '..', '..', 'scripts', 'postgres.sh');

/** A running server of the test's own. */
export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (`pg_ctl stop -m fast`: open connections are terminated). */
  stop(): Promise<void>;
  /** Starts it again on the same port, in the same cluster. */
  start(): Promise<void>;
  /** The port the running server listens on, from its postmaster.pid. */
  listeningPort(): number | undefined;
  /** Stops it and deletes its cluster. */
  remove(): Promise<void>;
}

/**
 * Why a test cannot have a server of its own here, or `undefined` when it can: it needs the local
 * setup of scripts/postgres.sh (AGENTLOG_PG_DIR) and its server binaries.
 */
export function ownPostgresUnavailable(): string | undefined {
  const url = process.env['AGENTLOG_POSTGRES_URL'];
  if (url === undefined || url === '')
    return 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`';
  const dir = process.env['AGENTLOG_PG_DIR'];
  if (dir === undefined || dir === '')
    return 'AGENTLOG_PG_DIR is not set: the server of AGENTLOG_POSTGRES_URL was started elsewhere, and this test restarts only a server it starts itself with scripts/postgres.sh';
  if (binDir() === undefined) return 'no PostgreSQL server binaries (pg_ctl) were found';
  return undefined;
}

/** Starts a server of the test's own in `${AGENTLOG_PG_DIR}-<label>`. */
export async function startOwnPostgres(label: string): Promise<OwnPostgres> {
  const shared = process.env['AGENTLOG_PG_DIR'];
  const bin = binDir();
  if (shared === undefined || bin === undefined) throw new Error(ownPostgresUnavailable());
  const base = `${shared}-${label}`;
  const data = join(base, 'data');
  const env = { ...process.env, AGENTLOG_PG_DIR: base };
  const { stdout } = await run('bash', [script, 'start'], { env });
  const match = /AGENTLOG_POSTGRES_URL=(postgres:\/\/\S+:(\d+)\/\S+)/.exec(stdout);
  if (match?.[1] === undefined || match[2] === undefined)
    throw new Error(`scripts/postgres.sh start printed no URL: ${stdout}`);
  const url = match[1];
  const port = Number(match[2]);
  const pgCtl = (args: string[]) => asServerUser(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const listeningPort = (): number | undefined => {
    const pidFile = join(data, 'postmaster.pid');
    if (!existsSync(pidFile)) return undefined;
    const line = readFileSync(pidFile, 'utf8').split('\n')[3];
    return line === undefined || line === '' ? undefined : Number(line);
  };
  return {
    url,
    port,
    listeningPort,
    stop: async () => {
      await pgCtl(['-m', 'fast', '-w', '-t', '30', 'stop']);
    },
    start: async () => {
      // The options scripts/postgres.sh starts it with, on the port it got then.
      await pgCtl([
        '-l',
        join(base, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${base}`,
        'start',
      ]);
    },
    remove: async () => {
      await run('bash', [script, 'stop'], { env });
    },
  };
}

async function asServerUser(command: string, args: string[]): Promise<void> {
  if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
  else await run(command, args);
}

/** Debian's newest server binaries, else the ones on the PATH (as scripts/postgres.sh picks). */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}
