/** The `PRAGMA application_id` that marks an agentlog database: "AGLG" in ASCII. */
export const agentlogApplicationId = 0x41474c47;

/** The schema version this code writes; a database with a higher one is refused. */
export const sqliteSchemaVersion = 1;

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
`;
