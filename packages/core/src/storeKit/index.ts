/**
 * `@agentlog/core/store-kit`: what a store adapter is built from, apart from the user API. An
 * adapter validates its input with the `assert…` checks, decides every append with
 * `judgeAppend` (the one append protocol), and feeds subscriptions with `createStreamDrain`.
 * `@agentlog/store/conformance` then proves it keeps the `EventStore` contract.
 */
export { judgeAppend } from '../store/judgeAppend.js';
export type { AppendVerdict, AppendTarget } from '../store/judgeAppend.js';
export {
  satisfiesExpectedRevision,
  assertValidExpectedRevision,
  assertRevisionOption,
} from '../store/expectedRevision.js';
export {
  assertValidStreamId,
  assertValidNewEvents,
  maxStreamIdLength,
} from '../store/streamValidation.js';
export { createStreamDrain } from '../store/streamDrain.js';
export {
  assertValidWorkEntry,
  assertLeaseMs,
  assertFindWorkOptions,
  assertAgentCaps,
  needsWorkNow,
  workStatuses,
} from '../store/workIndexChecks.js';
export type { FindWorkOptions } from '../store/workIndexChecks.js';
export { judgeFence, assertFenceOptions } from '../store/judgeFence.js';
export type { FencedEntry } from '../store/judgeFence.js';
export { judgeCap, cappedAgentOf } from '../store/judgeCap.js';
export { loadOptionalPeer } from '../errors/loadOptionalPeer.js';
