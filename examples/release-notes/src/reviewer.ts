import type { WriteChangelogArgs } from './writeChangelog.js';

/**
 * A reviewer's decision on a draft. `recorded`: the decision is already in the stream (the web
 * console wrote it), so the loop records nothing and goes on from what the stream holds.
 */
export type Verdict =
  | { readonly kind: 'approve'; readonly recorded?: true }
  | { readonly kind: 'revise'; readonly feedback: string; readonly recorded?: true }
  | { readonly kind: 'reject'; readonly recorded?: true };

/** The call a proposal belongs to: where a reviewer outside the process decides on it. */
export interface ReviewedCall {
  readonly streamId: string;
  readonly toolCallId: string;
}

/** Whoever reviews the drafts: a person at a terminal, a web form, or a script in tests. */
export interface Reviewer {
  /** Recorded as the author of each decision (SPEC HITL-10). */
  readonly name: string;
  review(proposal: WriteChangelogArgs, call?: ReviewedCall): Promise<Verdict>;
}

/** Constructors of {@link Verdict}. */
export const Verdict = {
  approve: (): Verdict => ({ kind: 'approve' }),
  revise: (feedback: string): Verdict => ({ kind: 'revise', feedback }),
  reject: (): Verdict => ({ kind: 'reject' }),
  /** The same decision, marked as already recorded in the stream by someone else. */
  recorded: (verdict: Verdict): Verdict => ({ ...verdict, recorded: true }),
} as const;

/** A reviewer that gives the verdicts in order and records what it was shown. */
export function scriptedReviewer(
  name: string,
  verdicts: readonly Verdict[],
): Reviewer & { seen: WriteChangelogArgs[] } {
  const seen: WriteChangelogArgs[] = [];
  return {
    name,
    seen,
    review(proposal) {
      const verdict = verdicts[seen.length];
      seen.push(proposal);
      if (verdict === undefined) {
        return Promise.reject(
          new Error(
            `reviewer ${name} was asked ${seen.length} times; the script has ${verdicts.length}`,
          ),
        );
      }
      return Promise.resolve(verdict);
    },
  };
}
