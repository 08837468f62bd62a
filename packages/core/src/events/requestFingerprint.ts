import { createHash, type Hash } from 'node:crypto';
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
 * very ones `requestFingerprint` gives. It extends only message lists that the state built from
 * one append-only history (`completionMessages`), whose earlier items cannot differ; any other
 * request, such as one a `beforeCompletion` hook rebuilt, is hashed whole.
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
    const lineage = messagesLineage(request.messages);
    if (lineage === undefined || !hasOnlyMessagesAndTools(request)) {
      return requestFingerprint(request);
    }
    const { messages } = request;
    if (
      this.#hash === undefined ||
      lineage.items !== this.#items ||
      lineage.summaryIndex !== this.#summaryIndex ||
      messages.length < this.#count
    ) {
      // Sorted keys: "messages" comes before "tools".
      this.#hash = createHash('sha256').update('{"messages":[');
      this.#items = lineage.items;
      this.#summaryIndex = lineage.summaryIndex;
      this.#count = 0;
    }
    for (let index = this.#count; index < messages.length; index += 1) {
      const text = canonicalJson(messages[index]);
      this.#hash.update(index === 0 ? text : `,${text}`);
    }
    this.#count = messages.length;
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
