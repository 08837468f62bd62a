import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources (each package's `source` export condition), so
// `npm test` needs no build first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
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
