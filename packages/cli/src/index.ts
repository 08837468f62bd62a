// The public surface of @agentlog/cli: the `agentlog` command line as a function, for tests and
// for tools that embed it (docs/cli.md). The executable is `dist/main.js`.
export { runCli } from './runCli.js';
export type { CliIo } from './cliIo.js';
export { bufferedIo } from './bufferedIo.js';
export type { BufferedIo } from './bufferedIo.js';
