import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources (each package's `source` export condition), so
// `npm test` needs no build first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    // Sized for a loaded 2-core machine, not a quiet one: a test must never fail for being slow
    // (tests that measure time assert ratios or counts, with their own bounds). Issue 21.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report is what CI reads (.ci/summary.mjs); the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: 'vitest-report.json' },
    include: [
      'packages/*/src/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'fixtures/**/*.test.ts',
    ],
  },
});
