import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ReviewersFileError } from './reviewersFileError.js';

/** The reviewers who may sign in to the console, each known by the SHA-256 of their token. */
export interface Reviewers {
  /** How many reviewers the file names. */
  readonly size: number;
  /** The name of the reviewer whose token is `token`, or `undefined`; compares in constant time. */
  nameOf(token: string): string | undefined;
}

interface Entry {
  readonly name: string;
  readonly hash: Buffer;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Reads the `--users` file: a JSON array of `{ "name": "ana", "token": "<secret>" }` or
 * `{ "name": "ana", "tokenSha256": "<64 hex digits>" }`. A missing or unreadable file, invalid
 * JSON, an entry without a name or with no (or both) token forms, a duplicate name or token, and
 * an empty list are a `ReviewersFileError` that names the file (as `shown`) and the entry, never a token.
 */
export async function loadReviewers(path: string, shown = path): Promise<Reviewers> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReviewersFileError(
      code === 'ENOENT'
        ? `no users file at ${shown}`
        : `cannot read the users file ${shown} (${code ?? 'error'})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ReviewersFileError(`the users file ${shown} is not valid JSON`);
  }
  return reviewersOf(parsed, shown);
}

/** Checks the parsed users file (see {@link loadReviewers}); `path` names it in errors. */
export function reviewersOf(parsed: unknown, path: string): Reviewers {
  if (!Array.isArray(parsed))
    throw new ReviewersFileError(
      `the users file ${path} must hold a JSON array of { name, token } entries`,
    );
  const entries: Entry[] = [];
  parsed.forEach((item: unknown, index) => {
    const where = `the users file ${path}, entry ${index + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ReviewersFileError(`${where} is not an object`);
    const { name, token, tokenSha256 } = item as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '')
      throw new ReviewersFileError(`${where} has no name`);
    if ((token === undefined) === (tokenSha256 === undefined))
      throw new ReviewersFileError(`${where} (${name}) needs exactly one of token and tokenSha256`);
    let hash: Buffer;
    if (token !== undefined) {
      if (typeof token !== 'string' || token.length < 16)
        throw new ReviewersFileError(
          `${where} (${name}): token must be a string of 16 characters or more`,
        );
      hash = sha256(token);
    } else {
      if (typeof tokenSha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(tokenSha256))
        throw new ReviewersFileError(
          `${where} (${name}): tokenSha256 must be 64 hexadecimal digits`,
        );
      hash = Buffer.from(tokenSha256, 'hex');
    }
    if (entries.some((entry) => entry.name === name))
      throw new ReviewersFileError(`${where}: the name ${name} appears twice`);
    if (entries.some((entry) => entry.hash.equals(hash)))
      throw new ReviewersFileError(`${where} (${name}) has the same token as another reviewer`);
    entries.push({ name, hash });
  });
  if (entries.length === 0)
    throw new ReviewersFileError(`the users file ${path} names no reviewer`);
  return {
    size: entries.length,
    nameOf(token) {
      const presented = sha256(token);
      let found: string | undefined;
      // Every entry is compared, each in constant time, so the time says nothing about the token.
      for (const entry of entries)
        if (timingSafeEqual(presented, entry.hash) && found === undefined) found = entry.name;
      return found;
    },
  };
}
