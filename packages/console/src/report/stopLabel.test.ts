import type { StopCause } from '@agentlog/core';
import { describe, expect, it } from 'vitest';
import { stopLabel } from './stopLabel.js';

// Every cause, once: a new cause fails `tsc` here until it is listed.
const every: Record<StopCause, true> = {
  toolRequestedStop: true,
  toolReportedFailure: true,
  toolCallsOverLimit: true,
  feedbackRequired: true,
  error: true,
  assistantAnswered: true,
  emptyResponse: true,
  limitReached: true,
  singleStep: true,
  nothingNew: true,
  aborted: true,
  modelRefused: true,
  tokenLimit: true,
  contentFiltered: true,
  stoppedByCaller: true,
};
const STOP_CAUSES = Object.keys(every) as StopCause[];

describe('stopLabel', () => {
  it('names every stop cause in words, never with the stored kind or cause', () => {
    const labels = STOP_CAUSES.map((cause) => stopLabel({ kind: 'noNewMessages' }, cause));
    expect(new Set(labels).size).toBe(STOP_CAUSES.length);
    // No stored identifier (they are all camelCase, or one plain word such as `error`).
    for (const label of labels) expect(label).not.toMatch(/[a-z][A-Z]|^\w+$/);
    expect(stopLabel({ kind: 'other', text: 'enough' }, 'stoppedByCaller')).toBe(
      'stopped on request',
    );
  });
});
