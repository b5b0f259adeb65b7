// Lint: typescript-eslint's recommended rules over every TypeScript file; the generated types are not linted.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// ---------------------------------------------------------------------------------------------------------------------
// Directions: the web app. Imports point down: web/ imports api/ and nothing else of
// the repository; inside web/src, app/ composes, features import neither app/ nor one another, and session/ and api/
// import neither app/ nor features/. ESLint's own no-restricted-imports, one entry per `files` glob; a later entry
// replaces an earlier one's patterns for the files both match, so each entry repeats WEB_OUTSIDE. The patterns are
// gitignore-style, where a leading # starts a comment: hence '\\#'. Not covered: the app's test tooling (web/src/test/,
// which runs the app against the mock server's MSW host, as the suites do) and the browser demo (web/demo/,
// web/vite.demo.config.ts), which composes the app with the mock server.
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
const WEB_NOT_COVERED = ['web/src/test/**', 'web/demo/**', 'web/vite.demo.config.ts']
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
  ...webDirections,
)
