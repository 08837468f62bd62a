import { afterAll, beforeAll, describe, it } from 'vitest';
import type { EventStore, WorkIndex } from '@agentlog/core';
import { describeCaps } from './describeCaps.js';
import { describeFences } from './describeFences.js';
import { describeFindWork } from './describeFindWork.js';
import { describeLeasesAndWorkers } from './describeLeasesAndWorkers.js';
import { describeWaitingWork } from './describeWaitingWork.js';
import type { WorkIndexUnderTest } from './workIndexHelpers.js';

/** What a work-index conformance run needs from an adapter. */
export interface WorkIndexConformanceStore {
  /** A store whose `work` is defined. */
  readonly store: EventStore;
  readonly close?: () => Promise<void>;
  /**
   * Moves the store's clock forward by `ms`, for a store whose clock a test can set (SQLite's
   * `clock` option). Without it the lease tests use short leases and wait for them to lapse.
   */
  readonly advanceClock?: (ms: number) => void;
}

/** Options of `describeWorkIndexConformance`. */
export interface WorkIndexConformanceOptions {
  /** Skips the whole suite, giving this reason. */
  readonly skip?: string;
}

/**
 * Registers the vitest suite every store with a work index (`EventStore.work`) must pass: the
 * entry is written in the same transaction as the events (SPEC WRK-6), first in first out, agent
 * names, streams that wait for a person (never listed, SPEC WRK-2), leases judged on the
 * store's clock and renewed by their owner only (SPEC WRK-4), heartbeats, `waitForWork`, the
 * fence (WRK-8) and the caps per agent name, judged at the claim (WRK-10). `makeStore` runs once;
 * every test uses fresh stream ids and agent names, so a persistent store may reuse one database.
 */
export function describeWorkIndexConformance(
  name: string,
  makeStore: () => Promise<WorkIndexConformanceStore>,
  options: WorkIndexConformanceOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`${name} (skipped: ${options.skip})`, () => {
      it('conforms to the WorkIndex contract', () => undefined);
    });
    return;
  }

  describe(name, () => {
    let made: WorkIndexConformanceStore | undefined;
    const made_ = (): WorkIndexConformanceStore => {
      if (made === undefined) throw new Error('the store was not made');
      return made;
    };
    const subject: WorkIndexUnderTest = {
      store: () => made_().store,
      work: (): WorkIndex => {
        const work = made_().store.work;
        if (work === undefined) throw new Error(`${name}: the store has no work index`);
        return work;
      },
      advanceClock: () => made_().advanceClock,
    };

    beforeAll(async () => {
      made = await makeStore();
    });
    afterAll(async () => {
      await made?.close?.();
    });

    describeFindWork(subject);
    describeLeasesAndWorkers(subject);
    describeWaitingWork(subject);
    describeFences(subject);
    describeCaps(subject);
  });
}
