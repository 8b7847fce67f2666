import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // A cycle means a room in the wrong place (STYLE habit 9). The rule skips `import type`
    // lines, so a cycle closed only by one still needs `npx madge --circular` to show.
    files: ['src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      // Without the TypeScript parser and extensions the rule reads no .ts file, and so finds
      // no cycle.
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The module boundary (STYLE habit 13): src/blog/ imports nothing outside itself, so it can be
    // lifted whole, and the shell and the example host see it only through its barrel.
    files: ['src/**/*.ts', 'examples/**/*.ts', 'scripts/**/*.ts', 'ormconfig.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './src/blog',
              from: './src',
              except: ['./blog'],
              message: 'src/blog/ is self-contained: it may import only packages and itself.',
            },
            {
              target: [
                './src/!(blog)/**/*',
                './src/*',
                './examples/**/*',
                './scripts/**/*',
                './ormconfig.ts',
              ],
              from: './src/blog',
              except: ['./index.ts'],
              message: 'Import the blog module through its public API, src/blog/index.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Imports sorted: Node's own, then packages, then the project's, each group alphabetised.
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { import: importPlugin },
    rules: {
      'import/order': [
        'error',
        {
          groups: ['builtin', 'external', ['internal', 'parent', 'sibling', 'index']],
          'newlines-between': 'always',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    // GraphQL responses in tests are loosely typed JSON.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
