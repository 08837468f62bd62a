// @agentlog/core/read-models: what the CLI, the console and the audit report show, computed once
// from the fold (docs/packages.md). Text helpers make model-written text safe to show (SPEC REV-1).
export { argumentLines } from './argumentLines.js';
export { approvalVerdictText, decisionScopeText } from './approvalVerdictText.js';
export { decidedStop } from './decidedStop.js';
export type { DecidedStop } from './decidedStop.js';
export type { FoldedStream } from './foldedStream.js';
export { runStatus } from './runStatus.js';
export { runSummaries } from './runSummaries.js';
export type { RunSummaries, RunSummary } from './runSummaries.js';
export { stateOf } from './stateOf.js';
export { waitingCalls } from './waitingCalls.js';
export type { UnreadableStream, WaitingCall, WaitingCalls } from './waitingCalls.js';
export { streamsThatMayWait } from './streamsThatMayWait.js';
export {
  clockTime,
  compactJson,
  dateTime,
  oneLine,
  quoted,
  summarizeArgs,
} from './summarizeArgs.js';
export { visibleLine, visibleText } from './visibleText.js';
export { workColumn } from './workColumn.js';
export { callsAwaitingDecision } from '../events/stateQueries.js';
export { canonicalJson } from '../support/json.js';
export type { AwaitedCall } from '../events/stateQueries.js';
export { stopDetail, timelineMemory, timelineRow } from './timelineRow.js';
export type {
  TimelineMemory,
  TimelineOptions,
  TimelineSegment,
  TimelineStyle,
} from './timelineRow.js';
