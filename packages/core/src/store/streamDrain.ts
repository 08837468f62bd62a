import type { Subscriber } from 'rxjs';
import type { StreamEvent } from '../ports/eventStore.js';

/**
 * The delivery loop of a catch-up subscription: call the returned function whenever the stream may
 * have grown. Catch-up and live delivery are one loop reading pages from the next revision, so an
 * append made while it runs (even by a subscriber's own handler) is read by its next page: nothing
 * is skipped, repeated or delivered out of order. A failing read ends the subscription with it.
 */
export function createStreamDrain(
  subscriber: Subscriber<StreamEvent>,
  fromRevision: number,
  readPage: (fromRevision: number) => readonly StreamEvent[],
): () => void {
  let next = fromRevision;
  let draining = false;
  return () => {
    if (draining) return;
    draining = true;
    try {
      while (!subscriber.closed) {
        const page = readPage(next);
        if (page.length === 0) return;
        for (const event of page) {
          if (subscriber.closed) return;
          next = event.metadata.revision + 1;
          subscriber.next(event);
        }
      }
    } catch (error) {
      subscriber.error(error);
    } finally {
      draining = false;
    }
  };
}
