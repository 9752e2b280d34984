// Lint rules: typescript-eslint's type-aware recommended set plus the few rules that catch real bugs in
// code that is mostly async I/O (a promise nobody awaits, a promise passed where a callback's result is
// ignored, a switch that forgets a new union member). Formatting is Prettier's alone
// (eslint-config-prettier, last, turns off every rule it would fight with), so lint never depends on layout.
// `npm run lint`; tools/test.sh runs it in the unit tier.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['**/node_modules/', 'build/', 'dist/', 'runtime/dist/', 'coverage/', 'docs/', '**/__snapshots__/']),
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Each file is checked against the nearest tsconfig.json: the root one, or runtime/tsconfig.json.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `typeof import('…')` stays allowed: it types the lazy `require` of a command or an optional peer
      // dependency (lib/cli/main.ts, lib/pulumi/automation.ts), which must not load at startup.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Passing on a caught `unknown` is fine; inventing a non-Error reason is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // An async function without `await` is how an implementation of a Promise-returning signature turns a
      // throw into a rejection; the promise bugs that matter are no-floating-promises' and no-misused-promises'.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests walk parsed manifests, engine YAML and JSON answers (`any` from a parser) down the path they
    // assert on: a wrong path fails the assertion, so typing each document would add casts, not safety.
    // Explicit `any` stays an error there too.
    files: ['test/**/*.ts', 'runtime/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // Plain JavaScript (the CLI shim, Jest's and the bundler's configs): no type information.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'object-shorthand': 'error',
    },
  },
  prettier,
);
