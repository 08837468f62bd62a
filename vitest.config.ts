import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources, so `npm test` needs no build first.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@agentlog\/core\/testing$/,
        replacement: src('./packages/core/src/testing/index.ts'),
      },
      {
        find: /^@agentlog\/core\/openai$/,
        replacement: src('./packages/core/src/openai/index.ts'),
      },
      { find: /^@agentlog\/core$/, replacement: src('./packages/core/src/index.ts') },
      {
        find: /^@agentlog\/store\/conformance$/,
        replacement: src('./packages/store/src/conformance/eventStoreConformance.ts'),
      },
      { find: /^@agentlog\/store$/, replacement: src('./packages/store/src/index.ts') },
      { find: /^@agentlog\/replay$/, replacement: src('./packages/replay/src/index.ts') },
    ],
  },
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
