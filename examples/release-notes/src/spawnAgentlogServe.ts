import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** `agentlog serve` running as a child process. */
export interface ServeProcess {
  /** Where the console listens, as it printed it, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Stops the console (SIGTERM: it closes its connections and its store) and waits for it. */
  close(): Promise<void>;
}

/**
 * The `agentlog` executable: the `bin` of @agentlog/cli's package.json, which `npm start` builds.
 * The showcase runs the command, as a reviewer would, rather than mounting `@agentlog/console`.
 */
export function agentlogBin(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@agentlog/cli'));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('@agentlog/cli has no package.json above its entry');
    dir = parent;
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin?: { agentlog?: string };
  };
  const bin = join(dir, pkg.bin?.agentlog ?? 'dist/main.js');
  if (!existsSync(bin)) {
    throw new Error(`the agentlog command is not built (no ${bin}): run \`npx tsc -b\` first`);
  }
  return bin;
}

/**
 * Starts `agentlog serve --store <storePath> --users <usersFile> --port <port>` in `cwd` and
 * resolves once it printed where it listens; rejects with its error output if it exits first.
 */
export function spawnAgentlogServe(options: {
  readonly storePath: string;
  readonly usersFile: string;
  readonly cwd: string;
  readonly port?: number;
}): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [
      agentlogBin(),
      'serve',
      '--store',
      options.storePath,
      '--users',
      options.usersFile,
      '--port',
      String(options.port ?? 0),
    ],
    { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const listening = /agentlog console on (http:\/\/\S+)/.exec(out);
      if (!listening) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: listening[1]!,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    void exited.then(() =>
      reject(
        new Error(
          `agentlog serve ended before it listened (exit ${String(child.exitCode ?? child.signalCode)}): ${err.trim() || out.trim()}`,
        ),
      ),
    );
  });
}
