/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  // No source maps in the build: it is served to browsers (browser mode), and a map hands out the whole source.
  // The entry chunk is mostly react-dom and zod (the contract's schemas), which the first screen needs;
  // each feature folder is small, so lazy-loading them would not make the first paint sooner, and the
  // app is read from disk or loopback, never a slow network. The limit still warns should it grow.
  build: { outDir: `${here}dist/renderer`, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  test: {
    root: here,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts'],
          exclude: ['node_modules/**'],
          environment: 'node',
          globalSetup: ['electron/testing/global-dynamodb.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
