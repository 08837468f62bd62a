import { StopWithArgs, type Tool } from '@agentlog/core';
import { z } from 'zod';

/** One entry of the release notes. */
export const itemSchema = z.strictObject({
  title: z.string().describe('Short, user-facing title.'),
  details: z.string().describe('What changed and why it matters, in one or two sentences.'),
  references: z
    .array(z.string())
    .describe(
      'Pull requests or commits as plain text, e.g. `#1207` or `90bcadc7`, not Markdown links.',
    ),
});

/** Structured release notes: the agent hands these over when it calls `stop`. */
export const releaseNotesSchema = z.strictObject({
  version: z.string().describe('The version being released, without a leading `v`.'),
  summary: z
    .string()
    .describe('One or two sentences on what this release is about, written for users.'),
  highlights: z.array(itemSchema).describe('New features and notable improvements.'),
  breaking_changes: z
    .array(itemSchema)
    .describe('Changes that require users to update their code.'),
  fixes: z.array(itemSchema).describe('Bug fixes users may notice.'),
});

/** The release notes as the caller receives them. */
export type ReleaseNotes = z.infer<typeof releaseNotesSchema>;

/** A `stop` tool whose arguments must be {@link ReleaseNotes}; a mismatch goes back to the model. */
export function releaseNotesStopTool(): Tool {
  return StopWithArgs.fromZod(releaseNotesSchema);
}

/** Reads release notes out of a stop payload, or explains why they are malformed. */
export function parseReleaseNotes(payload: unknown): ReleaseNotes {
  const parsed = releaseNotesSchema.safeParse(payload);
  if (!parsed.success) {
    throw new Error(
      `the agent stopped with malformed release notes: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
