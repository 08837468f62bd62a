import type { Pool } from 'pg';
import type { PostgresListener } from './postgresListener.js';
import type { PostgresNames } from './postgresSchema.js';

/**
 * What the append, read and subscribe operations of one PostgreSQL store share: its pool, the
 * names of its tables and channel, its LISTEN connection, and the gate that creates its schema.
 */
export interface PostgresStoreContext {
  readonly pool: Pool;
  readonly names: PostgresNames;
  readonly listener: PostgresListener;
  readonly ready: () => Promise<void>;
}
