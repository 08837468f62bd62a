import { Observable } from 'rxjs';
import { type StreamEvent } from '@agentlog/core';
import {
  assertRevisionOption,
  assertValidStreamId,
  createStreamDrain,
} from '@agentlog/core/store-kit';

/** What the subscriptions need from the store: pages of a stream and a cheap change counter. */
export interface SqliteSubscriptionSource {
  /** Up to `maxCount` events of the stream from `fromRevision` on, in order. */
  readPage(streamId: string, fromRevision: number, maxCount: number): StreamEvent[];
  /** `PRAGMA data_version`: it changes when another connection commits. A throw fails every subscription. */
  dataVersion(): number;
}

/** The live subscriptions of one SQLite store. */
export interface SqliteSubscriptions {
  subscribe(streamId: string, fromRevision: number | undefined): Observable<StreamEvent>;
  /** Delivers what this process just appended to `streamId`, without waiting for a poll. */
  notify(streamId: string): void;
  /** Stops polling and fails every live subscription with `error`. */
  close(error: Error): void;
}

interface Entry {
  readonly streamId: string;
  readonly drain: () => void;
  readonly fail: (error: Error) => void;
}

const pageSize = 500;

/**
 * Feeds `subscribeToStream`: catch-up, then live. Appends of this process arrive through `notify`;
 * those of other processes are found by polling `data_version` every `pollMs` while at least one
 * subscription is open (the timer stops with the last one).
 */
export function createSqliteSubscriptions(
  source: SqliteSubscriptionSource,
  pollMs: number,
): SqliteSubscriptions {
  const entries = new Set<Entry>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let seenVersion = 0;

  const failAll = (error: Error): void => {
    for (const entry of [...entries]) entry.fail(error);
    entries.clear();
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  const poll = (): void => {
    let version: number;
    try {
      version = source.dataVersion();
    } catch (error) {
      // The database failed (storeUnavailable): the subscriptions learn it rather than wait forever.
      failAll(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (version === seenVersion) return;
    seenVersion = version;
    for (const entry of [...entries]) entry.drain();
  };

  const startPolling = (): void => {
    if (timer !== undefined) return;
    // Taken before the first catch-up reads, so a commit made in between shows up at the next poll.
    seenVersion = source.dataVersion();
    timer = setInterval(poll, pollMs);
  };

  const remove = (entry: Entry): void => {
    entries.delete(entry);
    if (entries.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const subscribe = (streamId: string, fromRevision: number | undefined) =>
    new Observable<StreamEvent>((subscriber) => {
      // Thrown here, these reach the subscriber as an error notification.
      assertValidStreamId(streamId);
      assertRevisionOption('fromRevision', fromRevision);

      const drain = createStreamDrain(subscriber, fromRevision ?? 0, (from) =>
        source.readPage(streamId, from, pageSize),
      );
      const entry: Entry = { streamId, drain, fail: (error) => subscriber.error(error) };
      startPolling();
      entries.add(entry);
      drain();
      return () => remove(entry);
    });

  return {
    subscribe,
    notify: (streamId) => {
      for (const entry of [...entries]) if (entry.streamId === streamId) entry.drain();
    },
    close: failAll,
  };
}
