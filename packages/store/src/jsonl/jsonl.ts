// The JSONL entry of @agentlog/store (`@agentlog/store/jsonl`): one event per line, the fixture
// and export format; it loads no database driver.
export { writeJsonl } from './writeJsonl.js';
export { appendJsonl } from './appendJsonl.js';
export { readJsonl } from './readJsonl.js';
export type { JsonlContents } from './readJsonl.js';
