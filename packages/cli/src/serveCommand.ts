import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { resolve } from 'node:path';
import { loadReviewers, ReviewersFileError, startConsole, type Reviewers } from '@agentlog/console';

/** `agentlog serve`: the reviewer's web console and its JSON API. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: "run the reviewer's web console and its JSON API (--users)",
  define(command) {
    command
      .description(
        "Runs the reviewer's web console: the calls that wait for a decision, decide pages, " +
          'runs, stop and the audit page, and a JSON API for any other UI. Only the reviewers of ' +
          'the --users file get in (a sign-in form, or Authorization: Bearer <token>), and each ' +
          'decision records the signed-in reviewer. Plain HTTP: keep the default host, or put it ' +
          'behind a TLS proxy. Runs until interrupted (Ctrl-C).',
      )
      .option(
        '--users <file>',
        'the reviewers: a JSON array of { "name", "token" } or { "name", "tokenSha256" } (required)',
      )
      .option('--host <host>', 'the address to listen on (default 127.0.0.1: this machine only)')
      .option('--port <port>', 'the port to listen on (default 4317; 0 picks a free one)')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nSee docs/console.md for the users file, sign-in and the API.\n\nExample:\n' +
          '  agentlog serve --store .agentlog/agentlog.db --users reviewers.json',
      );
  },
  async run(parsed, io) {
    const users = parsed.string('users');
    if (users === undefined || users === '')
      throw new CliError('serve needs --users <file>: the console admits only named reviewers');
    const port = Number(parsed.string('port') ?? '4317');
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new CliError('--port must be a whole number from 0 to 65535');
    const host = parsed.string('host') ?? '127.0.0.1';
    const reviewers = await reviewersFrom(resolve(io.cwd, users), users);
    const opened = await openStore(parsed.string('store'), io);
    if (opened.kind === 'jsonl') {
      await opened.close();
      throw new CliError(
        `${opened.label} is a JSONL file, which agentlog only reads: serve needs a store it can record decisions in`,
      );
    }
    let running;
    try {
      running = await startConsole({ store: opened.store, reviewers, host, port });
    } catch (error) {
      await opened.close();
      throw new CliError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
    }
    io.stdout(
      `agentlog console on ${running.url} (store ${opened.label}, ${reviewers.size} reviewer(s)); Ctrl-C stops it\n`,
    );
    if (!['127.0.0.1', '::1', 'localhost'].includes(host))
      io.stderr(
        `warning: listening on ${host} over plain HTTP: tokens and cookies cross the network unencrypted; put a TLS proxy in front\n`,
      );
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        done();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await running.close();
    await opened.close();
    return 0;
  },
};

/** The reviewers of the users file; a file the console refuses is a `CliError` with its reason. */
async function reviewersFrom(path: string, shown: string): Promise<Reviewers> {
  try {
    return await loadReviewers(path, shown);
  } catch (error) {
    if (error instanceof ReviewersFileError) throw new CliError(error.message);
    throw error;
  }
}
