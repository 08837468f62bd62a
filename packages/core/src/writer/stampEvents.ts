import { InvalidEventError } from '../errors/invalidEventError.js';
import {
  CURRENT_SCHEMA_VERSION,
  type AgentEvent,
  type PendingEvent,
} from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { checkDraft } from '../events/checkEvent.js';
import { eventDataSchemas } from '../events/eventSchemas.js';
import { foldInto } from '../events/evolve.js';
import { editableDraft, publish } from '../events/stateDraft.js';
import type { Check } from '../support/checks.js';
import { frozenJsonCopy, NotJsonError } from '../support/frozenJsonCopy.js';
import { MIN_SECRET_LENGTH, REDACTED } from '../support/secretMasker.js';

/** What stamps an event: the injected clock and ids, and the values never to be stored. */
export interface Stamp {
  readonly clock: () => Date;
  readonly ids: () => string;
  /** Values never to be stored, such as the model's API key (SPEC RPL-3). */
  readonly secrets: readonly string[];
}

/**
 * Stamps an event and copies its data as a store would hand it back (SPEC EVT-2), with every
 * secret masked (SPEC RPL-3), then checks the copy exactly as reading will (SPEC EVT-6): what
 * is appended always reads back. The pure half of the write path; it throws
 * `InvalidEventError` for data that is not JSON or does not match its event type.
 */
export function stampEvent(event: PendingEvent, stamp: Stamp): Draft {
  const data: unknown = maskedCopy(event.type, event.data, stamp.secrets);
  const problem = (eventDataSchemas[event.type] as Check<unknown> | undefined)?.(data, '');
  if (problem !== undefined) throw new InvalidEventError(event.type, undefined, problem);
  // Frozen like the data: the writer hands its batches to the store as checked (`markCheckedBatch`).
  const metadata = Object.freeze({
    eventId: stamp.ids(),
    at: isoTime(stamp.clock()),
    schemaVersion: CURRENT_SCHEMA_VERSION,
  });
  return Object.freeze({ type: event.type, data, metadata });
}

let lastMs = Number.NaN;
let lastIso = '';

/** `date.toISOString()`, formatted once per millisecond: a step stamps several events in one. */
function isoTime(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastIso = date.toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** An event stamped with its id and time, before the store gives it a revision. */
export interface Draft {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: Omit<AgentEvent['metadata'], 'revision'>;
}

/**
 * Folds stamped events onto `base`, each checked against the state before it (SPEC EVT-4), and
 * gives them their revisions: the state they make and the events as they will be stored.
 */
export function foldDrafts(
  base: AgentState,
  drafts: readonly Draft[],
): { state: AgentState; events: AgentEvent[] } {
  const draft = editableDraft(base);
  const events: AgentEvent[] = [];
  for (const { type, data, metadata } of drafts) {
    const event = {
      type,
      data,
      metadata: { ...metadata, revision: draft.revision + 1 },
    } as AgentEvent;
    const problem = checkDraft(draft, event);
    if (problem !== undefined) throw new InvalidEventError(event.type, undefined, problem);
    foldInto(draft, event);
    events.push(event);
  }
  return { state: publish(draft), events };
}

/**
 * The data as a store hands it back, frozen (`frozenJsonCopy`), with every occurrence of a secret
 * replaced, in any string of it: a key the model or a tool echoes is never stored. Without secrets
 * it is the one copy of the write path; data that is not JSON throws `InvalidEventError`.
 */
function maskedCopy<T>(type: string, value: T, secrets: readonly string[]): T {
  try {
    // The copy walks the caller's value once: it checks it is JSON and detaches it from the caller.
    const copied = frozenJsonCopy(value);
    if (!secrets.some((secret) => secret.length >= MIN_SECRET_LENGTH)) return copied;
    let text = JSON.stringify(copied);
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET_LENGTH) continue;
      // The secret as it appears inside a JSON string (escapes included).
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (text.includes(escaped)) text = text.split(escaped).join(REDACTED);
    }
    return frozenJsonCopy(JSON.parse(text) as T);
  } catch (error) {
    if (error instanceof NotJsonError) throw new InvalidEventError(type, undefined, error.message);
    throw error;
  }
}
