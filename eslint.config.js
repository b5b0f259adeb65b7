// Lint: typescript-eslint's recommended rules over every TypeScript file; the generated types are not linted.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

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
)
