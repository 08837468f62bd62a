// The public surface of @agentlog/replay.
export { createReplayModel } from './createReplayModel.js';
export type { ReplayModel } from './createReplayModel.js';
export { createRecordingModel } from './createRecordingModel.js';
export type { RecordingModel, RecordedExchange } from './createRecordingModel.js';
export { replayStream } from './replayStream.js';
export type { ReplayOptions, ReplayResult } from './replayStream.js';
export { forkStream } from './forkStream.js';
export type { ForkOptions } from './forkStream.js';
export { redactSecrets, redactSecretText, DEFAULT_SECRET_FIELDS } from './redactSecrets.js';
export { structuralDiff } from './structuralDiff.js';
export type { DiffOptions } from './structuralDiff.js';
