// Lint: typescript-eslint's recommended rules over every TypeScript file; the generated types are not linted.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// ---- mock-server: features over one pipeline, imports pointing one way -----------------------------------------
// shared/ (leaf utilities) <- pipeline/ (the request's steps) <- the features <- the composition root (core.ts, app.ts,
// main.ts, compose/, hosts/, cli/). A feature never imports another: what it needs of one, core.ts hands it as a port.
// Only tests import the root (createMockCore, createApp) and mock-server/testing/; nothing in mock-server/ imports the
// suites, the developer scripts or the web app.
const MOCK_FEATURES = ['product', 'control', 'idp', 'external-sign-in', 'har']
const MOCK_ABOVE_FEATURES = ['compose', 'hosts', 'cli']
const MOCK_OUTSIDE = {
  regex: '^#(contracts|web)/|(^|/)(contracts|e2e|scripts|web)/',
  message: 'The mock server imports api/ and itself only: never contracts/, e2e/, scripts/ or web/.',
}
const MOCK_TEST_ONLY = [
  {
    regex: '^(\\.\\./)+(core|app|main)\\.ts$|^#mock-server/(core|app|main)\\.ts$',
    message: 'Only the composition root imports core.ts, app.ts or main.ts (a test may).',
  },
  { regex: '(^|/)testing/', message: 'mock-server/testing/ is test tooling: only tests import it.' },
]
const mockFolders = (folders, message) => ({ regex: `(^|/)(${folders.join('|')})/`, message })
/** The rule for one folder of mock-server/src: its own forbidden folders, and the root and test tooling for non-tests. */
const mockServerBlock = (folder, forbidden) => {
  const rule = (patterns) => ({
    'no-restricted-imports': ['error', { patterns: [MOCK_OUTSIDE, ...patterns] }],
  })
  return [
    {
      files: [`mock-server/src/${folder}/**/*.ts`],
      ignores: ['**/*.test.ts', '**/*.test-d.ts'],
      rules: rule([...forbidden, ...MOCK_TEST_ONLY]),
    },
    { files: [`mock-server/src/${folder}/**/*.test.ts`], rules: rule(forbidden) },
  ]
}
const mockServerRules = [
  {
    files: ['mock-server/**/*.{ts,mjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [MOCK_OUTSIDE] }] },
  },
  ...mockServerBlock('shared', [
    mockFolders(
      ['pipeline', ...MOCK_FEATURES, ...MOCK_ABOVE_FEATURES],
      'shared/ is a leaf: it imports only shared/.',
    ),
  ]),
  ...mockServerBlock('pipeline', [
    mockFolders(
      [...MOCK_FEATURES, ...MOCK_ABOVE_FEATURES],
      'pipeline/ imports no feature: core.ts hands it what it needs of one.',
    ),
  ]),
  ...MOCK_FEATURES.flatMap((feature) =>
    mockServerBlock(feature, [
      mockFolders(
        MOCK_FEATURES.filter((other) => other !== feature),
        `${feature}/ imports no other feature: core.ts hands it what it needs of one.`,
      ),
      mockFolders(MOCK_ABOVE_FEATURES, `${feature}/ imports nothing above the features.`),
    ]),
  ),
]

// ---------------------------------------------------------------------------------------------------------------------
// Directions: the web app. Imports point down: web/ imports api/ and nothing else of
// the repository; inside web/src, app/ composes, features import neither app/ nor one another, and session/ and api/
// import neither app/ nor features/. ESLint's own no-restricted-imports, one entry per `files` glob; a later entry
// replaces an earlier one's patterns for the files both match, so each entry repeats WEB_OUTSIDE. The patterns are
// gitignore-style, where a leading # starts a comment: hence '\\#'. Not covered: the app's test tooling (web/src/test/,
// which runs the app against the mock server's MSW host, as the suites do).
// ---------------------------------------------------------------------------------------------------------------------
const WEB_OUTSIDE = [
  {
    group: ['\\#mock-server/*', '**/mock-server/**'],
    message: 'web/ never imports the mock server: both stand on api/.',
  },
  {
    group: ['\\#contracts/*', '**/contracts/**'],
    message: 'web/ never imports the contract suite: it stands above web/.',
  },
  { group: ['**/e2e/**'], message: 'web/ never imports the e2e suite: it stands above web/.' },
  { group: ['**/scripts/**'], message: 'web/ never imports developer scripts: they stand above everything.' },
]
const WEB_APP_SHELL = {
  group: ['\\#web/app/*', '**/app/*'],
  message:
    'The app shell (web/src/app/) composes; nothing below it imports it: take what you need as props or services.',
}
const WEB_FEATURES = {
  group: ['\\#web/features/*', '**/features/*'],
  message: 'features/ sit above session/, api/ and lib/: move what both need below them (lib/, lib/config/).',
}
const WEB_OTHER_FEATURE = {
  // From web/src/features/<one>/x.tsx, '../<other>/y.ts' is another feature ('../../lib/...' is not).
  group: ['../*/**', '!../../**', '\\#web/features/*'],
  message: 'A feature never imports another feature: move what both need to lib/.',
}
const WEB_NOT_COVERED = ['web/src/test/**']
const webDirections = [
  {
    files: ['web/**/*.{ts,tsx}'],
    ignores: WEB_NOT_COVERED,
    rules: { 'no-restricted-imports': ['error', { patterns: WEB_OUTSIDE }] },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...WEB_OUTSIDE, WEB_APP_SHELL, WEB_OTHER_FEATURE] }],
    },
  },
  {
    files: ['web/src/session/**/*.{ts,tsx}', 'web/src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...WEB_OUTSIDE, WEB_APP_SHELL, WEB_FEATURES] }],
    },
  },
]
// ---------------------------------------------------------------------------------------------------------------------

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'web/dist/',
      'api/*.gen.ts',
      'test-results/',
      'playwright-report/',
      'reports/',
      '.stryker-tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      // Vite wraps a dynamic import in its preload helper together with the calls chained onto it, so in
      // `import('./x').then(ok, failed)` the handlers run inside the wrapper, and a stylesheet of the chunk that
      // fails to load rejects outside them (the QA panel's did, and reached the error page). Await the import in an
      // async function with try/catch instead (app/qa-panel-slot.tsx).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > MemberExpression.callee > ImportExpression.object',
          message:
            "Vite runs what is chained onto import() inside its preload helper, where a stylesheet's failure escapes it: await the import in an async function with try/catch.",
        },
      ],
    },
  },
  ...mockServerRules,

  ...webDirections,
)
