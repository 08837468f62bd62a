import type { CliCommand } from './cliCommand.js';
import { inspectCommand } from './inspectCommand.js';
import { replayCommand } from './replayCommand.js';
import { listCommand } from './listCommand.js';
import { pendingCommand } from './pendingCommand.js';
import { showCommand } from './showCommand.js';
import { decisionCommand } from './decisionCommand.js';
import { forkCommand } from './forkCommand.js';
import { reportCommand } from './reportCommand.js';
import { stopCommand } from './stopCommand.js';
import { requestCommand } from './requestCommand.js';
import { workerCommand } from './workerCommand.js';
import { workersCommand } from './workersCommand.js';
import { serveCommand } from './serveCommand.js';

/**
 * Every `agentlog` command, in the order `agentlog --help` lists them. `runCli` imports this
 * module only when it needs a command (not for `--version`), so `@agentlog/core` loads then; the
 * store adapters load later still, when a command opens a store (`openStore`).
 */
export const commands: readonly CliCommand[] = [
  inspectCommand,
  replayCommand,
  listCommand,
  pendingCommand,
  showCommand,
  decisionCommand('approve'),
  decisionCommand('refuse'),
  stopCommand,
  requestCommand,
  workerCommand,
  workersCommand,
  forkCommand,
  reportCommand,
  serveCommand,
];
