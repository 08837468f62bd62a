/**
 * Event stores for agentlog. This entry holds the default, the embedded SQLite store, and the JSONL
 * fixture format, and loads nothing else. The other backends have entries of their own, each
 * loading only its driver (an optional peer dependency): `@agentlog/store/postgres` (`pg`),
 * `@agentlog/store/kurrentdb` (`@kurrent/kurrentdb-client`). The conformance suite every adapter
 * must pass is at `@agentlog/store/conformance` (it needs vitest). The in-memory store and the
 * `EventStore` port live in `@agentlog/core`; this entry re-exports them.
 */
export { ConcurrencyError, createInMemoryEventStore } from '@agentlog/core';
export type {
  EventStore,
  ExpectedRevision,
  NewStreamEvent,
  ReadStreamOptions,
  StreamEvent,
} from '@agentlog/core';

export { createSqliteEventStore, defaultSqlitePath } from './sqlite/createSqliteEventStore.js';
export type {
  SqliteDurability,
  SqliteEventStore,
  SqliteEventStoreOptions,
} from './sqlite/createSqliteEventStore.js';
export { writeJsonl } from './jsonl/writeJsonl.js';
export { appendJsonl } from './jsonl/appendJsonl.js';
export { readJsonl } from './jsonl/readJsonl.js';
export type { JsonlContents } from './jsonl/readJsonl.js';
