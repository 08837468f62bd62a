import { fileURLToPath } from 'node:url';
import {
  ReplayDivergenceError,
  type ChatCompletion,
  type CompletionRequest,
  type CompletionResponse,
  type StreamEvent,
} from '@agentlog/core';
import { createReplayModel, type ReplayModel } from '@agentlog/replay';
import { readJsonl } from '@agentlog/store';

/** The recordings `npm start` runs on offline, by name (see fixtures/PROVENANCE.md). */
export const RECORDINGS = {
  approve: fileURLToPath(new URL('../fixtures/recordings/approve.jsonl', import.meta.url)),
  revise: fileURLToPath(new URL('../fixtures/recordings/revise.jsonl', import.meta.url)),
} as const;

/** The revision feedback the `revise` recording holds. */
export const RECORDED_FEEDBACK = 'Mention the Perl support and the breaking change.';

/** The run asked for an answer no recording holds. */
export class OfflineDivergence extends Error {
  override readonly name = 'OfflineDivergence';
  constructor(readonly divergence: ReplayDivergenceError) {
    super(
      [
        'This run left the offline recordings: the model was asked something no recording holds.',
        divergence.message,
        'Offline, the approve path (answer y) and the revise path (the feedback',
        `"${RECORDED_FEEDBACK}", then y) are recorded; set OPENAI_API_KEY to run live.`,
      ].join('\n'),
    );
  }
}

/** A model that follows whichever recordings still match the requests, as they come. */
export interface OfflineModel extends ChatCompletion {
  /** The divergence that ended the run, if any. */
  divergence(): OfflineDivergence | undefined;
}

/**
 * Serves recorded answers from several recordings at once: every request goes to each recording
 * that matched all requests so far, and those that diverge drop out. The recordings share their
 * beginning (the first draft) and part at the reviewer's answer, so the answers pick the path.
 * With `done`, the recordings are first advanced past the requests an interrupted run already
 * made (matched by their fingerprints).
 */
export function createOfflineModel(
  recordings: readonly (readonly StreamEvent[])[],
  done: readonly StreamEvent[] = [],
): OfflineModel {
  const answered = fingerprints(done);
  let live: ReplayModel[] = recordings
    .filter((events) => startsWith(fingerprints(events), answered))
    .map((events) => createReplayModel(events, { fromRevision: revisionAfter(events, answered) }));
  let found: OfflineDivergence | undefined;
  return {
    async complete(request: CompletionRequest, options) {
      const results = await Promise.allSettled(
        live.map((model) => model.complete(request, options)),
      );
      const kept = live.filter((_, index) => results[index]?.status === 'fulfilled');
      if (kept.length === 0) {
        const first = results.find((result) => result.status === 'rejected');
        const reason: unknown = first?.reason;
        found ??= new OfflineDivergence(
          reason instanceof ReplayDivergenceError
            ? reason
            : new ReplayDivergenceError(
                'the run, which no recording matches any more; completion',
                0,
                undefined,
                request,
                '  no recording matches the requests so far',
              ),
        );
        throw found;
      }
      live = kept;
      const answer = results.find((result) => result.status === 'fulfilled');
      return (answer as PromiseFulfilledResult<CompletionResponse>).value;
    },
    divergence: () => found,
  };
}

/** Reads the shipped recordings. */
export async function readRecordings(): Promise<StreamEvent[][]> {
  return Promise.all(Object.values(RECORDINGS).map(async (path) => (await readJsonl(path)).events));
}

function fingerprints(events: readonly StreamEvent[]): string[] {
  return events
    .filter((event) => event.type === 'ModelResponded')
    .map((event) => (event.data as { requestFingerprint: string }).requestFingerprint);
}

function startsWith(all: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= all.length && prefix.every((print, index) => all[index] === print);
}

/** The revision after the `answered.length`th answer of a recording (0 when none). */
function revisionAfter(events: readonly StreamEvent[], answered: readonly string[]): number {
  if (answered.length === 0) return 0;
  const responses = events.filter((event) => event.type === 'ModelResponded');
  const last = responses[answered.length - 1];
  return last === undefined ? 0 : last.metadata.revision + 1;
}
