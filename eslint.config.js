// @ts-check
import tseslint from 'typescript-eslint';

// The layers of packages/core/src, bottom to top (docs/decider.md): a folder imports only from
// the folders below it, so no two folders import each other. Folders on one line are peers and
// import neither of each other. Tests (`*.test.ts`, `test/`) may import anything.
const coreLayers = [
  ['support'],
  ['messages'],
  ['ports'],
  ['errors'],
  ['store'],
  ['events'],
  ['api'],
  ['decider'],
  ['writer'],
  ['loop'],
  ['tools', 'commands', 'worker'],
  ['agent'],
  ['openai', 'otel', 'testing', 'storeKit', 'replayKit'],
];

/** One config per layer: what lies above it (and its peers) is a restricted import there. */
const layerRules = coreLayers.flatMap((layer, level) => {
  const below = coreLayers.slice(0, level).flat();
  return layer.map((folder) => {
    const forbidden = coreLayers
      .flat()
      .filter((other) => other !== folder && !below.includes(other));
    return {
      files: [`packages/core/src/${folder}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: forbidden.map((other) => `../${other}/*`),
                message: `layers (docs/decider.md): core/src/${folder} imports only from ${below.join(', ') || 'nothing else in core'}`,
              },
            ],
          },
        ],
      },
    };
  });
});

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      // Scratch profiling scripts, never committed (.gitignore).
      'bench/prof-tmp/**',
      '**/node_modules/**',
      'fixtures/sessions/**',
      'eslint.config.js',
      '.ci/**',
      // Peer scenario runners: plain JS against peer frameworks CI never installs (see bench/).
      'bench/peers/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  ...layerRules,
);
