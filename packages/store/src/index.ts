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
