import type { AgentEvent, AgentState } from '@agentlog/core';
import type { CliIo } from './cliIo.js';
import { readFolded } from './loadStream.js';
import type { OpenedStore } from './openStore.js';
import { visibleLine } from '@agentlog/core/read-models';

/**
 * Folds every stream of `opened` in turn and hands each to `visit`. A stream that cannot be
 * folded is one line on stderr, prefixed `agentlog <command>:`, and is skipped; the others are
 * still visited. Returns how many were skipped.
 */
export async function foldEachStream(
  opened: OpenedStore,
  command: string,
  io: CliIo,
  visit: (streamId: string, folded: { events: AgentEvent[]; state: AgentState }) => void,
): Promise<number> {
  let unreadable = 0;
  for (const streamId of await opened.store.listStreams()) {
    let folded;
    try {
      folded = await readFolded(opened, streamId);
    } catch (error) {
      unreadable += 1;
      io.stderr(
        `agentlog ${command}: ${visibleLine((error as Error).message.split('\n')[0] ?? '')}\n`,
      );
      continue;
    }
    visit(streamId, folded);
  }
  return unreadable;
}
