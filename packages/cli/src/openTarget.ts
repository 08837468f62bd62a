import { resolve } from 'node:path';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { openJsonl, openStore, type OpenedStore } from './openStore.js';

/** The store a reading command opened, and the stream it reads there. */
export interface OpenedTarget {
  readonly opened: OpenedStore;
  readonly streamId: string;
}

/**
 * Opens what `target` names for reading: a `.jsonl` file, or a stream id in the `--store` store
 * (optional when that store is one JSONL file). The store is opened read-only (SPEC REV-2).
 * Without a stream to read it is closed again and the `CliError` says so; else the caller closes it.
 */
export async function openTarget(
  target: string | undefined,
  where: string | undefined,
  io: CliIo,
): Promise<OpenedTarget> {
  const opened =
    target !== undefined && /\.jsonl$/i.test(target)
      ? await openJsonl(target, resolve(io.cwd, target))
      : await openStore(where, io, { readonly: true });
  const streamId = target === undefined || opened.kind === 'jsonl' ? opened.soleStream : target;
  if (streamId === undefined) {
    await opened.close();
    throw new CliError('name the stream (or a .jsonl file) to read');
  }
  return { opened, streamId };
}
