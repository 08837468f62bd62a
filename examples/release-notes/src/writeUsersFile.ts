import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A reviewer the console admits, with the token to sign in with. */
export interface ConsoleUser {
  readonly name: string;
  /** 256 random bits, base64url: 43 characters. */
  readonly token: string;
}

/**
 * Writes a users file for `agentlog serve` (docs/console.md) naming one reviewer with a fresh
 * random token, readable by its owner only (mode 0600). An older file is removed first, so the
 * token never lands in a file that others can read.
 */
export async function writeUsersFile(path: string, name: string): Promise<ConsoleUser> {
  const user = { name, token: randomBytes(32).toString('base64url') };
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true });
  await writeFile(path, `${JSON.stringify([user], null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return user;
}
