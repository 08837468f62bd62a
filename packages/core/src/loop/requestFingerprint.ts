import { createHash } from 'node:crypto';
import type { CompletionRequest } from '../ports/chatCompletion.js';
import { canonicalJson } from '../support/json.js';

/** SHA-256 of the canonical JSON of a request (messages, tool specs, settings): SPEC RPL-1. */
export function requestFingerprint(request: CompletionRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
