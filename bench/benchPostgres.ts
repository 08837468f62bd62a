import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A PostgreSQL server for a bench: its connection string, and how to stop it when it is ours. */
export interface BenchPostgres {
  readonly url: string;
  /** Whether the bench started it (then `stop` deletes it). */
  readonly throwaway: boolean;
  stop(): void;
}

const script = fileURLToPath(new URL('../../scripts/postgres.sh', import.meta.url));

/**
 * The server named by AGENTLOG_POSTGRES_URL, or else a throwaway one that scripts/postgres.sh
 * starts in a new temporary directory (installing Debian's PostgreSQL as root when missing) and
 * `stop()` stops and deletes.
 */
export function benchPostgres(): BenchPostgres {
  const given = process.env['AGENTLOG_POSTGRES_URL'];
  if (given !== undefined && given !== '') return { url: given, throwaway: false, stop: () => {} };
  const env = {
    ...process.env,
    AGENTLOG_PG_DIR: mkdtempSync(join(tmpdir(), 'agentlog-bench-pg-')),
  };
  const printed = execFileSync('bash', [script, 'start'], { env, encoding: 'utf8' });
  const url = /AGENTLOG_POSTGRES_URL=(\S+)/.exec(printed)?.[1];
  if (url === undefined) throw new Error(`scripts/postgres.sh start printed no URL: ${printed}`);
  return {
    url,
    throwaway: true,
    stop: () => void execFileSync('bash', [script, 'stop'], { env, stdio: 'ignore' }),
  };
}
