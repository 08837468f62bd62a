// @ts-check
import tseslint from 'typescript-eslint';

// The packages, bottom to top (docs/packages.md), and which others each may import. Every other
// @agentlog package, the package's own name, a relative path into another package and a relative
// import of an index (a package's root or an entry) are refused outside tests.
const packageDeps = {
  core: [],
  store: ['core'],
  replay: ['core', 'store'],
  console: ['core'],
  cli: ['core', 'store', 'replay', 'console'],
};

/** The import patterns refused anywhere in `packages/<name>/src` (tests aside). */
function packagePatterns(name) {
  const refused = Object.keys(packageDeps).filter((other) => !packageDeps[name].includes(other));
  return [
    {
      group: refused.flatMap((other) => [`@agentlog/${other}`, `@agentlog/${other}/*`]),
      message: `packages (docs/packages.md): @agentlog/${name} imports only ${packageDeps[name].map((dep) => `@agentlog/${dep}`).join(', ') || 'no other @agentlog package'}, and itself by relative paths`,
    },
    {
      regex: `^(\\.\\./)+(${Object.keys(packageDeps).join('|')})/src/`,
      message:
        'packages (docs/packages.md): import another package by its name, not by a path into it',
    },
    {
      regex: '^(\\./|(\\.\\./)+)index\\.js$',
      message:
        'packages (docs/packages.md): import the module itself, not an index that re-exports it',
    },
  ];
}

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
  ['readModels'],
  ['tools', 'commands', 'worker'],
  ['agent'],
  ['openai', 'otel', 'testing', 'storeKit', 'replayKit'],
];

const testFiles = ['**/*.test.ts', '**/test/**'];

/** One config per layer: what lies above it (and its peers) is a restricted import there. */
const layerRules = coreLayers.flatMap((layer, level) => {
  const below = coreLayers.slice(0, level).flat();
  return layer.map((folder) => {
    const forbidden = coreLayers
      .flat()
      .filter((other) => other !== folder && !below.includes(other));
    return {
      files: [`packages/core/src/${folder}/**/*.ts`],
      ignores: testFiles,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: forbidden.map((other) => `../${other}/*`),
                message: `layers (docs/decider.md): core/src/${folder} imports only from ${below.join(', ') || 'nothing else in core'}`,
              },
              ...packagePatterns('core'),
            ],
          },
        ],
      },
    };
  });
});

/** The package rules for every package; core's folders get them with their layer (above). */
const packageRules = Object.keys(packageDeps).map((name) => ({
  files: name === 'core' ? ['packages/core/src/*.ts'] : [`packages/${name}/src/**/*.ts`],
  ignores: testFiles,
  rules: {
    'no-restricted-imports': ['error', { patterns: packagePatterns(name) }],
  },
}));

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
  ...packageRules,
  ...layerRules,
);
