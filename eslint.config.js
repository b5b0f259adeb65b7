// Lint: typescript-eslint's recommended rules over every TypeScript file (the generated types are not linted), and the
// house's one direction of imports (docs/architecture.md, docs/decisions/023-one-house.md).
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

// ---- Directions: import-x's no-restricted-paths resolves each import, relative or #alias, to its file, so a zone
// cannot be walked around by spelling a path another way. Each entry names what a folder may never import.

/** The floors: api/ at the bottom; web/, mock-server/, harness/, qa-cli/ on it; demo/ and the suites above them. */
const REPOSITORY = {
  api: ['web', 'mock-server', 'harness', 'qa-cli', 'demo', 'contracts', 'e2e', 'scripts'],
  web: ['mock-server', 'harness', 'qa-cli', 'demo', 'contracts', 'e2e', 'scripts'],
  'mock-server': ['web', 'harness', 'qa-cli', 'demo', 'contracts', 'e2e', 'scripts'],
  harness: ['web', 'mock-server', 'qa-cli', 'demo', 'contracts', 'e2e', 'scripts'],
  'qa-cli': ['web', 'mock-server', 'harness', 'demo', 'contracts', 'e2e', 'scripts'],
  demo: ['harness', 'qa-cli', 'contracts', 'e2e', 'scripts'],
  contracts: ['web', 'qa-cli', 'demo', 'e2e', 'scripts'],
  e2e: ['qa-cli', 'demo', 'contracts', 'scripts'],
}
/** The one exception, for tests only: the app's and the QA command line's tests run them against the real mock server. */
const TESTS_MAY_RUN_AGAINST_THE_MOCK = ['web', 'qa-cli']

const MOCK = './mock-server/src'
const MOCK_FEATURES = ['product', 'control', 'idp', 'external-sign-in', 'har', 'health']
/** What composes the features. A test may import it to build a whole server. */
const MOCK_ROOT = ['compose', 'hosts', 'cli', 'core.ts', 'app.ts', 'main.ts']

const WEB = './web/src'
const WEB_FEATURES = ['auth', 'help', 'home', 'process', 'qa']
const WEB_SHELL = ['app', 'main.tsx']

const zone = (target, from, message, except) => ({ target, from, message, ...(except && { except }) })

function directions({ test }) {
  const repository = Object.entries(REPOSITORY).flatMap(([folder, never]) =>
    never
      .filter(
        (other) => !(test && other === 'mock-server' && TESTS_MAY_RUN_AGAINST_THE_MOCK.includes(folder)),
      )
      .map((other) =>
        zone(`./${folder}`, `./${other}`, `${folder}/ never imports ${other}/: imports point down.`),
      ),
  )
  const mockServer = [
    zone(`${MOCK}/shared`, MOCK, 'mock-server/src/shared/ is a leaf: it imports only shared/.', ['./shared']),
    ...[...MOCK_FEATURES, 'pipeline'].flatMap((folder) => [
      ...MOCK_FEATURES.filter((feature) => feature !== folder).map((feature) =>
        zone(
          `${MOCK}/${folder}`,
          `${MOCK}/${feature}`,
          `${folder}/ never imports the feature ${feature}/: the composition root (core.ts) hands it what it needs.`,
        ),
      ),
      ...(test ? [] : MOCK_ROOT).map((root) =>
        zone(`${MOCK}/${folder}`, `${MOCK}/${root}`, `${folder}/ never imports ${root}, which composes it.`),
      ),
    ]),
  ]
  const webApp = [
    ...WEB_FEATURES.map((feature) =>
      zone(
        `${WEB}/features/${feature}`,
        `${WEB}/features`,
        'A feature never imports another feature: move what both need to lib/.',
        [`./${feature}`],
      ),
    ),
    ...['features', 'session', 'api', 'lib'].flatMap((folder) =>
      WEB_SHELL.map((shell) =>
        zone(
          `${WEB}/${folder}`,
          `${WEB}/${shell}`,
          `The app shell (${shell}) composes; ${folder}/ never imports it.`,
        ),
      ),
    ),
    ...['session', 'api', 'lib'].map((folder) =>
      zone(
        `${WEB}/${folder}`,
        `${WEB}/features`,
        `features/ stand on ${folder}/; ${folder}/ never imports them.`,
      ),
    ),
  ]
  return [...repository, ...mockServer, ...webApp]
}

const TESTS = ['**/*.test.{ts,tsx}', '**/*.test-d.ts', 'web/src/test/**', 'mock-server/testing/**']

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
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: directions({ test: false }) }] },
  },
  {
    files: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: directions({ test: true }) }] },
  },
)
