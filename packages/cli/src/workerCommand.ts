import { createWorker } from '@agentlog/core';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { loadAgentsModule } from './loadAgentsModule.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog worker`: runs the agents' work from the store's work index (SPEC WRK). */
export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'run a worker: take requested, decided and crashed runs (--agents, --concurrency)',
  define(command) {
    command
      .description(
        'Runs a worker until SIGTERM or SIGINT: it takes requested runs, runs whose every waiting ' +
          "call holds a decision, and runs whose lease lapsed by the store's clock, for the agents " +
          'the --agents module exports, and renews their leases while they work. On SIGTERM or ' +
          'SIGINT it claims nothing more, lets running steps finish (30 s), releases each run it ' +
          'holds so another worker continues it at once, and exits with 0.',
      )
      .option(
        '--agents <module>',
        'a module that exports agents: { [name]: (streamId) => builder }',
      )
      .option('--concurrency <n>', 'how many runs it holds at once (default 1)')
      .option('--id <name>', 'its id, recorded in every run it takes (default host-pid-suffix)')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nThe store must keep a work index: SQLite or PostgreSQL (KurrentDB keeps none).\n\n' +
          'Example:\n  agentlog worker --store postgres://localhost/agentlog --agents ./dist/agents.js --concurrency 4',
      );
  },
  async run(parsed, io) {
    const given = parsed.string('agents');
    if (given === undefined || given === '')
      throw new CliError('worker needs --agents <module>: a module that exports agents');
    const concurrencyText = parsed.string('concurrency') ?? '1';
    const concurrency = Number(concurrencyText);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new CliError(
        `--concurrency must be a whole number of 1 or more, not ${visibleLine(concurrencyText)}`,
      );
    const opened = await openStore(parsed.string('store'), io);
    try {
      if (opened.store.work === undefined)
        throw new CliError(
          `${opened.label} keeps no work index, so no worker can find work in it; use a SQLite or PostgreSQL store`,
        );
      const agents = await loadAgentsModule(given, io.cwd);
      const shutdown = io.shutdown ?? processShutdown();
      const id = parsed.string('id');
      io.stdout(
        `worker${id === undefined ? '' : ` ${visibleLine(id)}`} on ${visibleLine(opened.label)}: ${Object.keys(agents).map(visibleLine).join(', ')}\n`,
      );
      await createWorker({
        store: opened.store,
        agents,
        concurrency,
        signal: shutdown,
        ...(id === undefined ? {} : { id }),
        logger: { warn: (message) => io.stderr(`agentlog worker: ${visibleLine(message)}\n`) },
      });
      io.stdout('worker stopped; every run it held is released\n');
      return 0;
    } finally {
      await opened.close();
    }
  },
};

/** A signal that SIGTERM or SIGINT aborts (once; a second SIGINT ends the process as usual). */
function processShutdown(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    controller.abort();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return controller.signal;
}
