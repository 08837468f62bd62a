import { runCli } from './cli.js';

// The showcase (`npm start`): an agent drafts release notes from a git history, a person at the
// terminal (or `echo y |`) approves or revises each write, and the agent hands over typed notes.
// Offline by default: recorded model answers, then the offline drafter (deterministic rules, not a
// model) where the run leaves them; `--serve` reviews in the web console. Every step lands in
// .agentlog/agentlog.db.

// A reader that stops early (`npm start | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// Ctrl-C while the agent runs aborts the run; a second one ends the process.
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort(new Error('interrupted (Ctrl-C)')));

process.exitCode = await runCli(process.argv.slice(2), {
  signal: interrupt.signal,
  input: process.stdin,
  write: (text) => process.stdout.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
});
