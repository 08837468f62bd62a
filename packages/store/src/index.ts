/**
 * Event stores for agentlog. The in-memory store and the `EventStore` port live in
 * `@agentlog/core`; this package re-exports them next to its adapters. The conformance suite every
 * adapter must pass is at `@agentlog/store/conformance` (it needs vitest).
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
export { createPostgresEventStore } from './postgres/createPostgresEventStore.js';
export type {
  PostgresEventStore,
  PostgresEventStoreOptions,
} from './postgres/createPostgresEventStore.js';
export { createKurrentEventStore } from './kurrent/createKurrentEventStore.js';
export type {
  KurrentEventStore,
  KurrentEventStoreOptions,
} from './kurrent/createKurrentEventStore.js';
export { writeJsonl } from './jsonl/writeJsonl.js';
export { appendJsonl } from './jsonl/appendJsonl.js';
export { readJsonl } from './jsonl/readJsonl.js';
export type { JsonlContents } from './jsonl/readJsonl.js';
