#!/usr/bin/env node
// The `agentlog` executable: runs the command line with the process's streams and environment.
import { runCli } from './runCli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
});
