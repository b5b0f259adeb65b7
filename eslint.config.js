// Lint: typescript-eslint's recommended rules over every TypeScript file (the generated types are not linted), and the
// house's one direction of imports (docs/architecture.md, docs/decisions/023-one-house.md).
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

// ---- Directions: import-x's no-restricted-paths resolves each import, relative or #alias, to its file, so a zone
// cannot be walked around by spelling a path another way; an import it cannot resolve is an error of its own
// (import-x/no-unresolved). Each zone names what a folder MAY import: a folder added later is held at once.

/** The floors: api/ at the bottom; web/, mock-server/, harness/, qa-cli/ on it; demo/ and the suites above them. */
const REPOSITORY = {
  api: [],
  web: ['api'],
  'mock-server': ['api'],
  harness: ['api'],
  'qa-cli': ['api'],
  demo: ['web', 'mock-server', 'api'],
  contracts: ['mock-server', 'harness', 'api'],
  e2e: ['web', 'mock-server', 'harness', 'api'],
}
/** The one exception, for tests only: the app's and the QA command line's tests run them against the real mock server. */
const TESTS_MAY_RUN_AGAINST_THE_MOCK = ['web', 'qa-cli']
/** Test tooling: the product's code never imports it (the suites may). */
const TEST_TOOLING = ['./web/src/test', './mock-server/testing']
/** The product's code, where an import must be spelled so that its direction can be checked. */
const PRODUCT = ['api', 'web/src', 'mock-server/src', 'qa-cli', 'demo', 'harness']

const folders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

const MOCK = './mock-server/src'
/** What composes the features. A test may import it to build a whole server. */
const MOCK_ROOT = ['compose', 'hosts', 'cli', 'core.ts', 'app.ts', 'main.ts']
/** The layers under every feature, and the demo's stand-ins for Node modules (its Vite config aliases them). */
const MOCK_BELOW = ['pipeline', 'shared', 'browser']
/** Every other folder of mock-server/src is a feature. */
const MOCK_FEATURES = folders(MOCK).filter((name) => !MOCK_ROOT.includes(name) && !MOCK_BELOW.includes(name))

const WEB = './web/src'
const WEB_FEATURES = folders(`${WEB}/features`)
const WEB_SHELL = ['app', 'main.tsx']
/** What the features stand on. */
const WEB_BELOW = ['session', 'api', 'lib']

const zone = (target, from, message, except) => ({ target, from, message, ...(except && { except }) })

function directions({ test }) {
  const repository = Object.entries(REPOSITORY).map(([folder, may]) => {
    const allowed = [
      ...may,
      ...(test && TESTS_MAY_RUN_AGAINST_THE_MOCK.includes(folder) ? ['mock-server'] : []),
    ]
    return zone(
      `./${folder}`,
      '.',
      `${folder}/ imports only ${[folder, ...allowed].map((name) => `${name}/`).join(', ')} and packages: imports point down.`,
      [folder, ...allowed, 'node_modules'].map((name) => `./${name}`),
    )
  })
  const tooling = test
    ? []
    : PRODUCT.flatMap((folder) =>
        TEST_TOOLING.map((from) =>
          zone(`./${folder}`, from, `${folder}/ never imports the test tooling ${from.slice(2)}/.`),
        ),
      )
  const mockServer = [
    zone(`${MOCK}/shared`, MOCK, 'mock-server/src/shared/ is a leaf: it imports only shared/.', ['./shared']),
    zone(
      `${MOCK}/browser`,
      MOCK,
      'mock-server/src/browser/ stands in for Node modules: it imports only browser/.',
      ['./browser'],
    ),
    zone(`${MOCK}/pipeline`, MOCK, 'pipeline/ imports only pipeline/ and shared/.', [
      './pipeline',
      './shared',
    ]),
    ...MOCK_FEATURES.map((feature) =>
      zone(
        `${MOCK}/${feature}`,
        MOCK,
        `The feature ${feature}/ imports only itself, pipeline/ and shared/: the composition root (core.ts) hands it ` +
          `what it needs of another${test ? '' : ', and only its tests build a whole server'}.`,
        [feature, 'pipeline', 'shared', ...(test ? MOCK_ROOT : [])].map((name) => `./${name}`),
      ),
    ),
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
    ...['features', ...WEB_BELOW].flatMap((folder) =>
      WEB_SHELL.map((shell) =>
        zone(
          `${WEB}/${folder}`,
          `${WEB}/${shell}`,
          `The app shell (${shell}) composes; ${folder}/ never imports it.`,
        ),
      ),
    ),
    ...WEB_BELOW.map((folder) =>
      zone(
        `${WEB}/${folder}`,
        `${WEB}/features`,
        `features/ stand on ${folder}/; ${folder}/ never imports them.`,
      ),
    ),
  ]
  return [...repository, ...tooling, ...mockServer, ...webApp]
}

/** Import spellings the resolver cannot follow to a file: refused, so no import of ours escapes the zones above. */
const HIDDEN_IMPORTS = [
  {
    selector: "ImportExpression[source.type!='Literal']",
    message: 'Import a module by a literal path, so the direction of imports can be checked.',
  },
  {
    selector: 'TSImportType Literal[value=/^[.#]/]',
    message: "Name a module of ours in an import declaration (import type), not in a type's import().",
  },
  {
    selector: "CallExpression[callee.callee.name='createRequire'] > Literal.arguments[value=/^[.#]/]",
    message: 'Import a module of ours with import, so the direction of imports can be checked.',
  },
]
/** Imports no resolver finds on disk, by design: Vite's virtual modules and asset suffixes. */
const UNRESOLVABLE_BY_DESIGN = ['^virtual:', '\\?']

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
    files: PRODUCT.map((folder) => `${folder}/**/*.{ts,tsx,js,mjs}`),
    rules: { 'no-restricted-syntax': ['error', ...HIDDEN_IMPORTS] },
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
        ...HIDDEN_IMPORTS,
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
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mjs', '.cjs', '.js', '.json', '.node'],
          // TypeScript (NodeNext) maps an import of x.js to x.ts: resolve it as tsc and tsx do.
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
          conditionNames: ['types', 'import', 'require', 'default'],
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: directions({ test: false }) }],
      'import-x/no-unresolved': ['error', { ignore: UNRESOLVABLE_BY_DESIGN }],
    },
  },
  {
    files: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: directions({ test: true }) }] },
  },
)
