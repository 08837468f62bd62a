import type { Pool } from 'pg';
import type { PostgresListener } from './postgresListener.js';
import type { PostgresNames } from './postgresSchema.js';

/**
 * What the append, read and subscribe operations of one PostgreSQL store share: its pool, the
 * names of its tables and channel, its LISTEN connection, the gate that creates its schema, and
 * how its messages name it.
 */
export interface PostgresStoreContext {
  readonly pool: Pool;
  readonly names: PostgresNames;
  readonly listener: PostgresListener;
  readonly ready: () => Promise<void>;
  /** The store in messages, e.g. `PostgreSQL schema agentlog on 127.0.0.1:5432/postgres`. */
  readonly label: string;
  /** Which appends wait for their WAL flush; see `PostgresEventStoreOptions.durability`. */
  readonly durability: PostgresDurability;
}

/** What a committed PostgreSQL append survives; see `PostgresEventStoreOptions.durability`. */
export type PostgresDurability = 'full' | 'sideEffects';

/**
 * The store as messages name it: its schema and, when the connection string shows them, the host,
 * port and database (never the user or the password).
 */
export function postgresLabel(connectionString: string, schema: string): string {
  const server = serverOf(connectionString);
  return `PostgreSQL schema ${schema}${server === undefined ? '' : ` on ${server}`}`;
}

function serverOf(connectionString: string): string | undefined {
  try {
    const url = new URL(connectionString);
    if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') {
      const host = decodeURIComponent(url.host) || url.searchParams.get('host') || 'localhost';
      return `${host}${url.pathname === '/' ? '' : url.pathname}`;
    }
  } catch {
    // Not a URL: a libpq key=value string.
  }
  const value = (key: string): string | undefined =>
    new RegExp(`(?:^|\\s)${key}\\s*=\\s*'?([^'\\s]+)`).exec(connectionString)?.[1];
  const host = value('host');
  if (host === undefined) return undefined;
  const port = value('port');
  const database = value('dbname');
  return `${host}${port === undefined ? '' : `:${port}`}${database === undefined ? '' : `/${database}`}`;
}
