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

/** The run asked for an answer no recording holds: where it left the recordings. */
export class OfflineDivergence extends Error {
  override readonly name = 'OfflineDivergence';
  constructor(readonly divergence: ReplayDivergenceError) {
    super(
      [
        'This run left the offline recordings: the model was asked something no recording holds.',
        divergence.message,
      ].join('\n'),
    );
  }
}

/** What the offline model falls back on, and what it tells when it does. */
export interface OfflineModelOptions {
  /** The events an interrupted run already holds: the recordings are advanced past them. */
  readonly done?: readonly StreamEvent[];
  /** Answers every request once the run left the recordings (the offline drafter). */
  readonly fallback: ChatCompletion;
  /** Called once, with the divergence, when the fallback takes over. */
  readonly onFallback?: (divergence: OfflineDivergence) => void;
}

/** Recorded answers while the run follows a recording, then the fallback for the rest of it. */
export interface OfflineModel extends ChatCompletion {
  /** Where the run left the recordings, if it did. */
  divergence(): OfflineDivergence | undefined;
}

/**
 * Serves recorded answers from several recordings at once: every request goes to each recording
 * that matched all requests so far, and those that diverge drop out. The recordings share their
 * beginning (the first draft) and part at the reviewer's answer, so the answers pick the path.
 * With `done`, the recordings are first advanced past the requests an interrupted run already
 * made (matched by their fingerprints). Once no recording matches (an answer or a history no
 * recording holds, or an interrupted run that had already left them), `fallback` answers this
 * request and every later one: the history then holds an answer no recording has, so none could
 * match again.
 */
export function createOfflineModel(
  recordings: readonly (readonly StreamEvent[])[],
  options: OfflineModelOptions,
): OfflineModel {
  const answered = fingerprints(options.done ?? []);
  let live: ReplayModel[] = recordings
    .filter((events) => startsWith(fingerprints(events), answered))
    .map((events) => createReplayModel(events, { fromRevision: revisionAfter(events, answered) }));
  let found: OfflineDivergence | undefined;
  return {
    async complete(request: CompletionRequest, completionOptions) {
      if (found === undefined) {
        const results = await Promise.allSettled(
          live.map((model) => model.complete(request, completionOptions)),
        );
        const kept = live.filter((_, index) => results[index]?.status === 'fulfilled');
        if (kept.length > 0) {
          live = kept;
          const answer = results.find((result) => result.status === 'fulfilled');
          return (answer as PromiseFulfilledResult<CompletionResponse>).value;
        }
        const reason: unknown = results.find((result) => result.status === 'rejected')?.reason;
        found = new OfflineDivergence(
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
        live = [];
        options.onFallback?.(found);
      }
      return options.fallback.complete(request, completionOptions);
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
