import { createRequire } from 'node:module';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';

export type { CliIo } from './cliIo.js';

function overview(commands: readonly CliCommand[]): string {
  return `Usage: agentlog <command> [options]

Commands:
${commands.map((command) => `  ${command.name.padEnd(9)} ${command.summary}`).join('\n')}

Every command takes --store <where>: a SQLite file (default .agentlog/agentlog.db), a
postgres:// URL or a .jsonl file. Run agentlog <command> --help for its options.`;
}

/**
 * Runs the `agentlog` command line `argv` (without `node` and the script) against `io` and
 * resolves to the exit code: 0 on success, 1 when `replay` found a divergence, 2 for bad input.
 * Errors are printed as one line on `io.stderr`, never as a stack trace.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // Answered before any command module loads: --version needs neither @agentlog/core nor a store.
  if (first === '--version' || first === '-V') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const { commands } = await import('./commands.js');
  if (first === undefined) {
    io.stderr(`${overview(commands)}\n`);
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = commands.find((command) => command.name === rest[0]);
    io.stdout(`${topic?.help ?? overview(commands)}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === first);
  if (command === undefined) {
    const what = first.startsWith('-') ? 'option' : 'command';
    io.stderr(`agentlog: unknown ${what} '${first}'; run agentlog --help\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr(`agentlog ${command.name}: ${oneLine(error)}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

function version(): string {
  // src/cli and dist/cli are both two folders below the package's package.json.
  const pkg = createRequire(import.meta.url)('../../package.json') as { version?: string };
  return pkg.version ?? 'unknown';
}
