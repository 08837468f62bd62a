/**
 * `@agentlog/core/replay-kit`: what agentlog's own replay and tools built like it use to re-drive
 * a recorded run, apart from the user API. A run is given its channel with
 * `agent[runWithChannel](mode, input, options, { recordedInputs, worker })`: the inputs others
 * wrote during the recorded run (SPEC RPL-5) and the worker that took it (WRK-7). No caller of
 * `query` or `run` can set either by accident: `RunOptions` has neither. A replay model matches a
 * request to its recording as the agent fingerprints it (`RequestFingerprinter`, over
 * `messagesForCompletion`), and recordings are redacted with the agent's own masker.
 */
export { runWithChannel } from '../api/runOptions.js';
export type { RunChannel, RecordedInputs, InputMoment } from '../api/runOptions.js';
export { isForeignEventType } from '../events/agentEvent.js';
export { messagesForCompletion } from '../messages/chatMessage.js';
export { RequestFingerprinter } from '../events/requestFingerprint.js';
export type { FingerprintSnapshot } from '../events/requestFingerprint.js';
export { secretMasker, REDACTED } from '../support/secretMasker.js';
