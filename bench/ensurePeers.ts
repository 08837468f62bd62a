import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Whether the peer frameworks can run, and if not, why (one line). */
export type PeerStatus = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Makes sure the peers pinned in `benchDir`/package.json are installed in `benchDir`/node_modules,
 * running `npm install --prefix <benchDir>` (with the committed lock file) when one is missing or
 * at another version. Never throws: a failed install is reported as the reason to run without.
 */
export async function ensurePeers(benchDir: string): Promise<PeerStatus> {
  const manifest = JSON.parse(await readFile(join(benchDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const pinned = Object.entries(manifest.dependencies);
  if ((await missingPeers(benchDir, pinned)).length === 0) return { ok: true };
  console.log('installing the peer frameworks into bench/node_modules (first use) …');
  const failure = await npmInstall(benchDir);
  if (failure !== undefined) return { ok: false, reason: failure };
  const missing = await missingPeers(benchDir, pinned);
  return missing.length === 0
    ? { ok: true }
    : { ok: false, reason: `npm install left out ${missing.join(', ')}` };
}

async function missingPeers(
  benchDir: string,
  pinned: readonly (readonly [string, string])[],
): Promise<string[]> {
  const missing: string[] = [];
  for (const [name, version] of pinned) {
    const path = join(benchDir, 'node_modules', name, 'package.json');
    const installed = await readFile(path, 'utf8').then(
      (text) => (JSON.parse(text) as { version?: string }).version,
      () => undefined,
    );
    if (installed !== version) missing.push(`${name}@${version}`);
  }
  return missing;
}

/** Runs npm (the one running this script when there is one); resolves to an error line or undefined. */
function npmInstall(benchDir: string): Promise<string | undefined> {
  const npmCli = process.env['npm_execpath'];
  // ai@7 declares Node 22 but runs on Node 20, hence --engine-strict=false.
  const args = [
    'install',
    '--prefix',
    benchDir,
    '--no-audit',
    '--no-fund',
    '--engine-strict=false',
    '--fetch-retries=1',
    '--fetch-timeout=30000',
  ];
  const [command, commandArgs] =
    npmCli !== undefined && npmCli.endsWith('.js')
      ? [process.execPath, [npmCli, ...args]]
      : ['npm', args];
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    // Without a registry npm may retry for minutes; give up after four.
    const timer = setTimeout(() => child.kill('SIGTERM'), 240_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => resolve(`npm could not start: ${error.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(undefined);
        return;
      }
      const lines = stderr
        .split('\n')
        .filter((line) => /npm error/i.test(line) && !/A complete log/i.test(line));
      resolve(
        `npm install --prefix bench failed: ${(lines[0] ?? `exit code ${code}`).replace(/^npm error\s*/i, '').trim()}`,
      );
    });
  });
}
