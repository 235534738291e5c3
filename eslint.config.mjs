// @ts-check
/**
 * ESLint: typescript-eslint's type-checked rules over every TypeScript and JavaScript file, with the
 * tsconfig projects of `npm run typecheck`; React's hook rules for the playground.
 * Run: `npm run lint`.
 */
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/dist/',
    'data/',
    'test-results/',
    'playwright-report/',
    // Sample inputs for the parsers, scorers and the playground, not code of this repository.
    'packages/*/test/fixtures/samples/',
    'packages/*/test/fixtures/syntax/',
    'apps/playground/src/samples/sessionStore.ts',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The projects `npm run typecheck` checks; each file is linted with the first that holds it.
        project: ['./tsconfig.json', './apps/playground/tsconfig.json', './tsconfig.tools.json', './tsconfig.scripts.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc reports undefined names in every file it checks (checkJs for the scripts).
      'no-undef': 'off',
      // `async` here implements Promise-returning interfaces (scorers, transports, fakes in tests)
      // with synchronous bodies; requiring an `await` in them adds nothing.
      '@typescript-eslint/require-await': 'off',
      // Flags initial values that every branch overwrites (`let name = null` before an if/else) and
      // a last `k++`; of its first 6 findings here none was a bug.
      'no-useless-assignment': 'off',
      // `_`-prefixed names and rest siblings (`const { engine: _drop, ...rest } = o`) are deliberate.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The library reads no environment variable: the programs (the CLI, the MCP server's stdio
    // entry and its workers) read them and pass them in (configureFromEnvironment, defaultStateDir).
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/cli/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'library code takes settings as options; read process.env in the CLI or the MCP entry point' },
      ],
    },
  },
  {
    // Tests read JSON (CLI output, fixtures) and poke at internals: the value checks are the
    // assertions themselves, and typing every parsed shape would only restate them.
    files: ['**/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The JavaScript scripts import the built dist/ by computed paths, so its values are `any`
    // there: the unsafe-any rules would flag every use. tsc still checks them (checkJs).
    files: ['**/*.{js,mjs}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The CLI's launcher is CommonJS (packages/core/bin/package.json): an ES-module entry would
    // start Node's ESM loader in every one-shot process.
    files: ['packages/core/bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['apps/playground/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // The service worker is plain JavaScript outside every tsconfig: linted without types.
    files: ['public/sw.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'script',
      globals: { self: 'readonly', caches: 'readonly', fetch: 'readonly', Response: 'readonly', URL: 'readonly' },
    },
    rules: { 'no-undef': 'error' },
  },
);
