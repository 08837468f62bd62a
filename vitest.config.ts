import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources (each package's `source` export condition), so
// `npm test` needs no build first.
const include = [
  'packages/*/src/**/*.test.ts',
  'examples/*/src/**/*.test.ts',
  'fixtures/**/*.test.ts',
];
// Files that replace a module (vi.mock) or the environment (vi.stubEnv) run in a module graph of
// their own; every other file shares its worker's, which halves the time spent importing (issue 21).
const isolated = [
  'packages/cli/src/writeReportFile.test.ts',
  'packages/core/src/openai/createOpenAiChatCompletion.test.ts',
];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    // Sized for a loaded 2-core machine, not a quiet one: a test must never fail for being slow
    // (tests that measure time assert ratios or counts, with their own bounds). Issue 21.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    unstubEnvs: true,
    // The JSON report is what CI reads (.ci/summary.mjs); the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: 'vitest-report.json' },
    projects: [
      {
        extends: true,
        test: { name: 'shared', include, exclude: isolated, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
