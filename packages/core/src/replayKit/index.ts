/**
 * `@agentlog/core/replay-kit`: what agentlog's own replay and tools built like it use to re-drive
 * a recorded run, apart from the user API. A run is given its channel with
 * `agent[runWithChannel](mode, input, options, { recordedInputs, worker })`: the inputs others
 * wrote during the recorded run (SPEC RPL-5) and the worker that took it (WRK-7). No caller of
 * `query` or `run` can set either by accident: `RunOptions` has neither.
 */
export { runWithChannel } from '../api/runOptions.js';
export type { RunChannel, RecordedInputs, InputMoment } from '../api/runOptions.js';
