import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tool, type Tool } from '@agentlog/core';
import { z } from 'zod';

/** The arguments of `write_changelog`: what the reviewer is shown. */
export const writeChangelogArgs = z.strictObject({
  markdown: z.string().describe('The complete release notes as Markdown.'),
});

/** The proposal a reviewer decides on. */
export type WriteChangelogArgs = z.infer<typeof writeChangelogArgs>;

/** The file the notes are written to, inside the output directory. */
export const RELEASE_NOTES_FILE = 'RELEASE_NOTES.md';

/**
 * The risky tool of the showcase: writes the Markdown to `RELEASE_NOTES.md` in `outputDir`.
 * The agent wraps it in `approvalRequired`, so it only runs once a person approved the draft.
 */
export function writeChangelog(outputDir: string): Tool {
  return tool({
    name: 'write_changelog',
    description: 'Write the release notes to RELEASE_NOTES.md. A maintainer approves every write.',
    parameters: writeChangelogArgs,
    execute: async ({ markdown }) => {
      const path = join(outputDir, RELEASE_NOTES_FILE);
      await mkdir(dirname(path), { recursive: true });
      // Written aside and renamed: an interrupted run never leaves a half-written file.
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
      await rename(temporary, path);
      return `wrote ${RELEASE_NOTES_FILE}`;
    },
  });
}
