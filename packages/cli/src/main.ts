#!/usr/bin/env node
// The `agentlog` executable: runs the command line with the process's streams and environment.
import { runCli } from './runCli.js';

// A reader that goes away early (`agentlog inspect … | head`) closes the pipe: the rest of the
// output is not wanted, which is no failure of the command.
let readerGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  readerGone = true;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => {
    if (!readerGone) process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  // Backpressure: a full pipe (a slow reader) makes a paged command wait, not buffer its output.
  drain: () => stdoutDrained(),
});

/** Resolves when stdout's buffer has drained, or at once when it is not full or the reader is gone. */
function stdoutDrained(): Promise<void> {
  const out = process.stdout;
  if (!out.writableNeedDrain || readerGone) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) out.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) out.once(event, done);
  });
}
