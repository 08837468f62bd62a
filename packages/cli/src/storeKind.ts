import { CliError } from './cliError.js';

/** Which backend a `--store` value names. */
export type StoreKind = 'sqlite' | 'postgres' | 'kurrentdb' | 'jsonl';

/** The URL schemes `--store` accepts for PostgreSQL and for KurrentDB. */
const postgresSchemes = ['postgres', 'postgresql'];
/** What `@kurrent/kurrentdb-client` accepts (its deprecated `esdb` scheme left out). */
const kurrentSchemes = ['kurrentdb', 'kurrentdb+discover', 'kurrent', 'kurrent+discover', 'kdb'];

/** The forms `--store` accepts, for error messages and help. */
export const storeForms =
  'a SQLite file path, a postgres:// or postgresql:// URL, a kurrentdb:// (or kurrent://, ' +
  'kdb://, kurrentdb+discover://) URL, or a .jsonl file';

/**
 * The backend `where` names: a URL by its scheme, a path ending in `.jsonl` a JSONL file, any
 * other path a SQLite file. A URL of another scheme is a `CliError` listing the accepted forms.
 */
export function storeKind(where: string): StoreKind {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(where)?.[1]?.toLowerCase();
  if (scheme === undefined) return /\.jsonl$/i.test(where) ? 'jsonl' : 'sqlite';
  if (postgresSchemes.includes(scheme)) return 'postgres';
  if (kurrentSchemes.includes(scheme)) return 'kurrentdb';
  throw new CliError(`--store does not accept ${scheme}:// URLs; give ${storeForms}`);
}
