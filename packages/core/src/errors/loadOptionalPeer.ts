import { AgentlogError } from './agentlogError.js';

/**
 * Loads an optional peer dependency (a database driver, the `openai` client) for the entry point
 * that needs it. When the package is not installed, the import fails with one line that names it
 * and says how to install it, instead of Node's resolution trace; any other failure (a broken
 * install, a missing dependency of the package itself) is rethrown as it is.
 *
 * `load` is the literal `() => import('pkg')`, so bundlers and the type checker still see it.
 */
export async function loadOptionalPeer<T>(
  packageName: string,
  entry: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, packageName)) throw error;
    throw new AgentlogError(
      'missingPeerDependency',
      `${entry} needs the package ${packageName}, which is not installed: run npm install ${packageName}`,
    );
  }
}

/** True when `error` says that `packageName` itself (not one of its dependencies) is missing. */
function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return (
    typeof message === 'string' &&
    (message.includes(`package '${packageName}'`) || message.includes(`module '${packageName}'`))
  );
}
