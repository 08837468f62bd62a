import { createHash, type Hash } from 'node:crypto';
import { messagesLineage } from '../events/stateQueries.js';
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
    return this.#hash.copy().update(`],"tools":${this.#toolsText}}`).digest('hex');
  }
}

function hasOnlyMessagesAndTools(request: CompletionRequest): boolean {
  if (!Array.isArray(request.tools)) return false;
  for (const key of Object.keys(request)) {
    if (
      key !== 'messages' &&
      key !== 'tools' &&
      request[key as keyof CompletionRequest] !== undefined
    )
      return false;
  }
  return true;
}
