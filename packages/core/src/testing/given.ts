import { isDeepStrictEqual } from 'node:util';
import { Agent } from '../agent/agent.js';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import { CURRENT_SCHEMA_VERSION, type PendingEvent } from '../events/agentEvent.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { counterIds, fixedClock } from './fixedClock.js';
import type { ExpectedEvent } from './deciderSpec.js';
import { partialMismatch } from './partialMatch.js';

/** A command given to an agent in a spec. */
export type Command = (agent: Agent) => Promise<unknown>;

/** The outcome a spec expects. */
export interface Then {
  /** The command resolves and appends exactly these events (type and data). */
  then(expected: readonly PendingEvent[]): Promise<Agent>;
  /** The command rejects with an error whose `code` is `code`, after appending these events. */
  thenRejects(code: string, expected: readonly PendingEvent[]): Promise<Agent>;
  /**
   * The command resolves and appends these events, matched partially: keys left out are not
   * compared (no fingerprint, id or time to paste), and a mismatch names its path.
   */
  thenMatches(expected: readonly ExpectedEvent[]): Promise<Agent>;
}

/**
 * Given/when/then specs for the agent (DESIGN: testing entry): `given(events, configure)` seeds a
 * stream, `.when(command)` runs a command on an agent built on it, `.then(events)` checks what
 * the command appended.
 */
export function given(
  events: readonly PendingEvent[],
  configure: (builder: AgentBuilder) => AgentBuilder,
): { when(command: Command): Then } {
  return {
    when(command) {
      const run = async (): Promise<{ agent: Agent; appended: PendingEvent[]; error: unknown }> => {
        const store = createInMemoryEventStore();
        const ids = counterIds('given');
        const clock = fixedClock();
        if (events.length > 0) {
          await store.appendToStream(
            'spec',
            events.map((event) => ({
              type: event.type,
              data: event.data,
              metadata: {
                eventId: ids(),
                at: clock().toISOString(),
                schemaVersion: CURRENT_SCHEMA_VERSION,
              },
            })),
            { expectedRevision: 'noStream' },
          );
        }
        const agent = await configure(
          Agent.builder().store(store).streamId('spec').clock(clock).ids(ids),
        ).build();
        let error: unknown;
        await command(agent).catch((caught: unknown) => {
          error = caught;
        });
        const stored = await store.readStream('spec', { fromRevision: events.length });
        return {
          agent,
          appended: stored.map(({ type, data }) => ({ type, data }) as PendingEvent),
          error,
        };
      };
      const compare = (appended: PendingEvent[], expected: readonly PendingEvent[]): void => {
        if (isDeepStrictEqual(appended, expected)) return;
        throw new Error(
          `given/when/then: the command appended\n${JSON.stringify(appended, null, 2)}\nbut the spec expects\n${JSON.stringify(expected, null, 2)}`,
        );
      };
      return {
        async thenMatches(expected) {
          const { agent, appended, error } = await run();
          if (error !== undefined)
            throw error instanceof Error ? error : new Error(JSON.stringify(error));
          const problem = partialMismatch(expected, appended);
          if (problem !== undefined) {
            throw new Error(
              `given/when/then: the appended events differ at ${problem}\nappended: ${JSON.stringify(appended, null, 2)}`,
            );
          }
          return agent;
        },
        async then(expected) {
          const { agent, appended, error } = await run();
          if (error !== undefined)
            throw error instanceof Error ? error : new Error(JSON.stringify(error));
          compare(appended, expected);
          return agent;
        },
        async thenRejects(code, expected) {
          const { agent, appended, error } = await run();
          const actual = (error as { code?: unknown } | undefined)?.code;
          if (actual !== code) {
            const got =
              error === undefined
                ? 'no rejection'
                : error instanceof Error
                  ? `${String(actual)}: ${error.message}`
                  : JSON.stringify(error);
            throw new Error(`given/when/then: expected a rejection with code ${code}, got ${got}`);
          }
          compare(appended, expected);
          return agent;
        },
      };
    },
  };
}
