// ESLint flat config. Module boundaries (STYLE.md): scope:api and scope:web depend only on scope:shared;
// scope:shared (contracts) depends on nothing of ours and imports only zod. No catch-all rule.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.nx/**', 'coverage/**', '**/*.config.*', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    plugins: { '@nx': nx },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@nx/enforce-module-boundaries': ['error', {
        enforceBuildableLibDependency: false,
        allow: [],
        depConstraints: [
          { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:db'] },
          { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared'] },
          { sourceTag: 'type:migrations', onlyDependOnLibsWithTags: [] },
          { sourceTag: 'type:seeds', onlyDependOnLibsWithTags: ['scope:shared'] },
          { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: [], bannedExternalImports: ['express', 'knex', 'pg', 'react', 'react-dom', 'axios', 'node:*'] },
        ],
      }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  { files: ['scripts/**', 'bench/**', 'e2e/**', '**/*.test.ts', '**/*.test.tsx'], rules: { 'no-console': 'off' } },
);
