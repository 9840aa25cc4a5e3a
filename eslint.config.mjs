import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-e2e*/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/screenshots/**',
      '**/node_modules/**',
      '**/coverage/**',
      '**/storybook-static/**',
      '**/.turbo/**',
      '**/.snippets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Use named exports only (see style.md).',
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tool configs and CSF stories (their meta) must default-export.
    files: ['**/*.config.{ts,mjs,js}', '**/.storybook/**', '**/*.stories.tsx'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The engine never imports React: it is tested and used without it.
    files: ['packages/react/src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react|react-dom|react-router)(/.*)?$',
              message:
                'packages/react/src/core/ is the React-free engine: move React code to hooks/ or components/.',
            },
          ],
        },
      ],
    },
  },
);
