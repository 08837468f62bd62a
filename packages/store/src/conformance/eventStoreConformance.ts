import { afterAll, beforeAll, describe, it } from 'vitest';
import type { EventStore } from '@agentlog/core';
import { describeAppendAndRead } from './describeAppendAndRead.js';
import { describeConcurrency } from './describeConcurrency.js';
import { describePayloads } from './describePayloads.js';
import { describeSubscriptions } from './describeSubscriptions.js';
import { describeValidation } from './describeValidation.js';

export {
  describeWorkIndexConformance,
  type WorkIndexConformanceOptions,
  type WorkIndexConformanceStore,
} from './workIndexConformance.js';

/** What a conformance run needs from an adapter: a store, and optionally how to close it. */
export interface ConformanceStore {
  readonly store: EventStore;
  readonly close?: () => Promise<void>;
}

/** Options of `describeEventStoreConformance`. */
export interface ConformanceOptions {
  /** Skips the whole suite, giving this reason (e.g. "set PG_URL to run against PostgreSQL"). */
  readonly skip?: string;
}

/**
 * Registers the vitest suite every `EventStore` adapter must pass (appends, expectations and
 * SPEC RES-3 conflicts, idempotence, reads, subscriptions, validation). `makeStore` runs once for
 * the suite; every test uses fresh stream ids, so a persistent store may reuse one database.
 */
export function describeEventStoreConformance(
  name: string,
  makeStore: () => Promise<ConformanceStore>,
  options: ConformanceOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`${name} (skipped: ${options.skip})`, () => {
      it('conforms to the EventStore contract', () => undefined);
    });
    return;
  }

  describe(name, () => {
    let made: ConformanceStore | undefined;
    const store = (): EventStore => {
      if (made === undefined) throw new Error('the store was not made');
      return made.store;
    };

    beforeAll(async () => {
      made = await makeStore();
    });
    afterAll(async () => {
      await made?.close?.();
    });

    describeAppendAndRead(store);
    describeConcurrency(store);
    describePayloads(store);
    describeSubscriptions(store);
    describeValidation(store);
  });
}
