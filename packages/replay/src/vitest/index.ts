// The vitest entry of @agentlog/replay: replay a recorded session in your own tests.
export { expectReplay, replaySession } from './expectReplay.js';
export type { ExpectReplayOptions } from './expectReplay.js';
export { toReplayCleanly, replayMatchers } from './toReplayCleanly.js';
export { recordSession } from './recordSession.js';
export type { Provenance } from './recordSession.js';
