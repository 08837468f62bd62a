import type { JsonValue } from '@agentlog/core';
import type { DecisionRequest } from './recordReviewerDecision.js';

/**
 * A decision from a form's fields or an API body, or what is wrong with it. A form's empty fields
 * count as absent; its payload is JSON text. `by` is never read: the reviewer is the signed-in one.
 */
export function decisionOf(fields: Record<string, unknown>, api = false): DecisionRequest | string {
  const text = (key: string): string | undefined => {
    const value = fields[key];
    return typeof value === 'string' && (api || value.trim() !== '') ? value : undefined;
  };
  const streamId = text('streamId');
  const toolCallId = text('toolCallId');
  const decision = fields['decision'];
  if (streamId === undefined || toolCallId === undefined)
    return 'streamId and toolCallId are required strings';
  if (decision !== 'approve' && decision !== 'refuse')
    return "decision must be 'approve' or 'refuse'";
  for (const key of ['note', 'reason'])
    if (fields[key] !== undefined && typeof fields[key] !== 'string')
      return `${key} must be a string`;
  // A form's checkbox sends `scope=run` only when it is ticked.
  const scope = fields['scope'];
  if (scope !== undefined && scope !== 'call' && scope !== 'run')
    return "scope must be 'call' or 'run'";
  let payload: JsonValue | undefined;
  if (api) payload = fields['payload'] as JsonValue | undefined;
  else {
    const given = text('payload');
    if (given !== undefined)
      try {
        payload = JSON.parse(given) as JsonValue;
      } catch (error) {
        return `the payload is not valid JSON: ${(error as Error).message}`;
      }
  }
  const revision = Number(text('revision') ?? Number.NaN);
  const note = text('note');
  const reason = text('reason');
  return {
    streamId,
    toolCallId,
    decision,
    ...(note === undefined ? {} : { note }),
    ...(reason === undefined ? {} : { reason }),
    ...(scope === 'run' ? { scope } : {}),
    ...(payload === undefined || payload === null ? {} : { payload }),
    ...(Number.isSafeInteger(revision) ? { shownRevision: revision } : {}),
  };
}
