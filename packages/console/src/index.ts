// The public surface of @agentlog/console: the reviewer's console as a Hono app to mount or start,
// the users file that admits reviewers, and the audit report's HTML (docs/console.md).
export { createConsole } from './createConsole.js';
export type { ConsoleOptions } from './createConsole.js';
export { startConsole } from './startConsole.js';
export type { RunningConsole } from './startConsole.js';
export { loadReviewers, reviewersOf } from './reviewers.js';
export type { Reviewers } from './reviewers.js';
export { ReviewersFileError } from './reviewersFileError.js';
export { renderReport } from './report/renderReport.js';
