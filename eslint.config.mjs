// ESLint flat config for the whole monorepo: `pnpm lint` (eslint . --max-warnings 0).
// TypeScript is linted with type information (each package's tsconfig.json, found by the project
// service); JavaScript (jest configs, test setup .mjs, scripts) with the untyped recommended rules.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/coverage/',
    '**/.aide/',
    '**/node_modules/',
    '**/bench-results/',
    '**/.readme-examples/',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,mts,cts}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Decorated files are skipped by this rule when the tsconfig has experimentalDecorators and
      // emitDecoratorMetadata (the backend's), so constructor-injected classes stay value imports.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'multi-line'],
      // The validators match NUL and other control characters on purpose (PostgreSQL text cannot
      // hold NUL); an accidental control character in a regex is not a risk this codebase has.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read HTTP response bodies as untyped JSON (light-my-request's `json()` is `any`) and assert
    // on them with expect(): the no-unsafe-* family would demand a cast on every line.
    files: ['**/test/**/*.{ts,mts}', '**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // node-postgres emits 'error' when the server drops a connection, and an 'error' event nobody
    // listens to ends the process: the backend makes its clients and pools in one place, with listeners.
    files: ['packages/backend/{src,test}/**/*.{ts,mts,mjs}'],
    ignores: ['packages/backend/src/database/pg-client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'NewExpression[callee.property.name=/^(Client|Pool)$/], NewExpression[callee.name=/^(Client|Pool)$/]',
          message:
            "Use connectClient/withClient (database/pg-client.ts): every pg client needs an 'error' listener.",
        },
      ],
    },
  },
  prettier,
);
