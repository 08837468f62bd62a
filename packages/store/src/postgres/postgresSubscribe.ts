import { Observable } from 'rxjs';
import { assertRevisionOption, assertValidStreamId } from '@agentlog/core/store-kit';
import type { StreamEvent } from '@agentlog/core';
import { assertPostgresText } from './postgresAppend.js';
import { postgresRead } from './postgresRead.js';
import { asStoreError, streamWhere } from '../storeErrors.js';
import type { PostgresStoreContext } from './postgresStoreContext.js';

/** How many events a subscription reads per query while it catches up. */
const subscriptionPageSize = 500;

/**
 * Subscribes to a stream of a PostgreSQL store (its `subscribeToStream`): the stored events from
 * `fromRevision` on, then each append as the store's LISTEN connection reports it.
 */
export function postgresSubscribe(
  context: PostgresStoreContext,
  streamId: string,
  fromRevision: number | undefined,
): Observable<StreamEvent> {
  return new Observable<StreamEvent>((subscriber) => {
    // Thrown here, these reach the subscriber as an error notification.
    assertValidStreamId(streamId);
    assertPostgresText(streamId);
    assertRevisionOption('fromRevision', fromRevision);

    let next = fromRevision ?? 0;
    let pulling = false;
    let pullAgain = false;
    let unwatch: (() => void) | undefined;

    const where = streamWhere(context.label, streamId);
    const fail = (error: unknown): void => {
      if (!subscriber.closed)
        subscriber.error(asStoreError(error, where, 'the subscription failed'));
    };
    const lost = (error: unknown): void => {
      if (!subscriber.closed)
        subscriber.error(asStoreError(error, where, 'the subscription lost its LISTEN connection'));
    };
    // Catch-up and live delivery are one loop reading from the next revision to deliver; a
    // notification during a read makes it read once more. So nothing is skipped or delivered twice.
    const pull = async (): Promise<void> => {
      if (pulling) {
        pullAgain = true;
        return;
      }
      pulling = true;
      try {
        do {
          pullAgain = false;
          for (;;) {
            if (subscriber.closed) return;
            const page = await postgresRead(context, streamId, {
              fromRevision: next,
              maxCount: subscriptionPageSize,
            });
            for (const event of page) {
              if (subscriber.closed) return;
              next = event.metadata.revision + 1;
              subscriber.next(event);
            }
            if (page.length < subscriptionPageSize) break;
          }
        } while (pullAgain);
      } finally {
        pulling = false;
      }
    };
    const requestPull = (): void => {
      pull().catch(fail);
    };

    // Listen first, then catch up: an append committed in between is in the read or notified.
    context
      .ready()
      .then(() => context.listener.watch(streamId, requestPull, lost))
      .then((stop) => {
        if (subscriber.closed) {
          stop();
          return;
        }
        unwatch = stop;
        requestPull();
      })
      .catch(fail);

    return () => {
      unwatch?.();
      unwatch = undefined;
    };
  });
}
