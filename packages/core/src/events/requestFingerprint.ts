import { createHash, type Hash } from 'node:crypto';
import type { ChatMessage } from '../messages/chatMessage.js';
import { messagesSource, type MessagesSource } from './completionRequest.js';
import { messagesLineage } from './stateQueries.js';
import type { CompletionRequest } from '../ports/chatCompletion.js';
import { canonicalJson } from '../support/json.js';

/** SHA-256 of the canonical JSON of a request (messages, tool specs, settings): SPEC RPL-1. */
export function requestFingerprint(request: CompletionRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/**
 * Computes `requestFingerprint` in O(new messages) per completion: the SHA-256 of the messages
 * seen so far is kept and extended, and copied to finish each digest, so the digests are the
 * very ones `requestFingerprint` gives. It extends only requests whose messages come from one
 * append-only history (`completionRequest`, or a list `completionMessages` built), whose earlier
 * items cannot differ, reading the new messages from the history without building the list; any
 * other request, such as one a `beforeCompletion` hook rebuilt, is hashed whole.
 */
export class RequestFingerprinter {
  #items: unknown;
  #summaryIndex = -1;
  #count = 0;
  #hash: Hash | undefined;
  #tools: readonly unknown[] | undefined;
  #toolsText = '';

  /** Starts where `snapshot` left off (its hash is copied, never changed). */
  constructor(snapshot?: FingerprintSnapshot) {
    if (snapshot === undefined) return;
    this.#items = snapshot.items;
    this.#summaryIndex = snapshot.summaryIndex;
    this.#count = snapshot.count;
    this.#hash = snapshot.hash.copy();
  }

  /** How far it got, for another fingerprinter of the same stream to go on from. */
  snapshot(): FingerprintSnapshot | undefined {
    if (this.#hash === undefined) return undefined;
    return {
      items: this.#items,
      summaryIndex: this.#summaryIndex,
      count: this.#count,
      hash: this.#hash.copy(),
    };
  }

  /** The fingerprint of `request`, equal to `requestFingerprint(request)`. */
  fingerprint(request: CompletionRequest): string {
    // A request as `completionRequest` built it is read through its history, not its list.
    const source = messagesSource(request) ?? listSource(request.messages);
    if (source === undefined || !hasOnlyMessagesAndTools(request)) {
      return requestFingerprint(request);
    }
    if (
      this.#hash === undefined ||
      source.items !== this.#items ||
      source.summaryIndex !== this.#summaryIndex ||
      source.length < this.#count
    ) {
      // Sorted keys: "messages" comes before "tools".
      this.#hash = createHash('sha256').update('{"messages":[');
      this.#items = source.items;
      this.#summaryIndex = source.summaryIndex;
      this.#count = 0;
    }
    // The new messages go into the hash in one update: each call into the hash costs more than
    // joining a few texts.
    let added = '';
    for (let index = this.#count; index < source.length; index += 1) {
      const text = canonicalJson(source.at(index));
      added += index === 0 ? text : `,${text}`;
    }
    if (added !== '') this.#hash.update(added);
    this.#count = source.length;
    if (request.tools !== this.#tools) {
      this.#tools = request.tools;
      this.#toolsText = canonicalJson(request.tools);
    }
    // Sorted keys: "settings" comes between "messages" and "tools".
    const settings =
      request.settings === undefined ? '' : `"settings":${canonicalJson(request.settings)},`;
    return this.#hash.copy().update(`],${settings}"tools":${this.#toolsText}}`).digest('hex');
  }
}

/** The source of a list that `completionMessages` built, or `undefined` for any other list. */
function listSource(messages: readonly ChatMessage[]): MessagesSource | undefined {
  const lineage = messagesLineage(messages);
  return lineage === undefined
    ? undefined
    : { ...lineage, length: messages.length, at: (index) => messages[index] as ChatMessage };
}

/**
 * The progress of a `RequestFingerprinter`: the history storage and summary it hashed, how many
 * messages, and a copy of the hash after them. Plain data apart from the hash, which is copied
 * before use, so one snapshot may start any number of fingerprinters.
 */
export interface FingerprintSnapshot {
  readonly items: unknown;
  readonly summaryIndex: number;
  readonly count: number;
  readonly hash: Hash;
}

function hasOnlyMessagesAndTools(request: CompletionRequest): boolean {
  if (!Array.isArray(request.tools)) return false;
  for (const key of Object.keys(request)) {
    if (
      key !== 'messages' &&
      key !== 'tools' &&
      key !== 'settings' &&
      request[key as keyof CompletionRequest] !== undefined
    )
      return false;
  }
  return true;
}
