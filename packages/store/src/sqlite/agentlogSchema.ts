/** The `PRAGMA application_id` that marks an agentlog database: "AGLG" in ASCII. */
export const agentlogApplicationId = 0x41474c47;

/**
 * The schema version this code writes; a database with a higher one is refused. Version 2 added
 * the work index (`agentlogWorkSchema`); version 3 added the `waiting` status to it; version 4
 * added the fencing token of a stream's last claim (`agentlog_work.fence`, SPEC WRK-8) and the
 * agent names a worker runs (`agentlog_workers.agents`, SPEC WRK-9); version 5 the caps per agent
 * name (`agentlog_caps`, SPEC WRK-10). An older database is migrated in place when a store opens
 * it for writing (`migrateAgentlogSchema`).
 */
export const sqliteSchemaVersion = 5;

/** The statuses the work table's CHECK allows (since schema version 3). */
const workStatusesSql = "'requested', 'ready', 'running', 'waiting', 'idle'";

/**
 * The work table (schema version 4), created as `table` (the migration builds it aside first).
 * `fence` is the revision of the first event of the stream's last claim (SPEC WRK-8), NULL until
 * a claim.
 */
export function agentlogWorkTable(table: string): string {
  return `
  CREATE TABLE ${table} (
    stream_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN (${workStatusesSql})),
    agent TEXT,
    owner TEXT,
    lease_until INTEGER,
    fence INTEGER,
    since INTEGER NOT NULL,
    updated INTEGER NOT NULL
  ) STRICT;`;
}

/** The partial indexes of the work table, which a table rebuild must create again. */
export const agentlogWorkIndexes = `
  CREATE INDEX agentlog_work_waiting ON agentlog_work (since)
    WHERE status IN ('requested', 'ready');
  CREATE INDEX agentlog_work_leases ON agentlog_work (lease_until) WHERE status = 'running';`;

/**
 * The caps per agent name (schema version 5, SPEC WRK-10): at most `cap` runs of `agent` hold a
 * live lease at once; a claim beyond it is refused in the append's transaction. `updated` is when
 * it was last set, by the store's clock.
 */
export const agentlogCapsTable = `
  CREATE TABLE agentlog_caps (
    agent TEXT PRIMARY KEY,
    cap INTEGER NOT NULL CHECK (cap >= 0),
    updated INTEGER NOT NULL
  ) STRICT;`;

// One row per stream that an append with a `work` entry wrote (SPEC WRK-6). Times are
// milliseconds since the epoch by the store's clock. The partial indexes hold only the rows that
// need work or hold a lease, so finding work never reads a finished stream's row.
// `agents` of a worker is a JSON array of the agent names it runs, NULL when it said none.
/**
 * The work index, the workers' heartbeats and the caps (schema version 5), as one script that
 * creates them.
 */
export const agentlogWorkSchema = `
  ${agentlogWorkTable('agentlog_work')}
  ${agentlogWorkIndexes}
  CREATE TABLE agentlog_workers (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    runs TEXT NOT NULL,
    agents TEXT
  ) STRICT;
  ${agentlogCapsTable}
`;

// `position` is the rowid: the global order of appends, which gives streams their creation order.
// `event` is the whole event as JSON, revision included, so a read parses one text per event.
/** The tables and index of an agentlog database, as one script that creates them. */
export const agentlogSchema = `
  CREATE TABLE agentlog_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  CREATE TABLE agentlog_events (
    position INTEGER PRIMARY KEY,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    event TEXT NOT NULL,
    CONSTRAINT agentlog_events_revision UNIQUE (stream_id, revision),
    CONSTRAINT agentlog_events_event_id UNIQUE (stream_id, event_id)
  ) STRICT;
  CREATE INDEX agentlog_stream_starts ON agentlog_events (position) WHERE revision = 0;
  ${agentlogWorkSchema}
`;
