/**
 * The house's layers, one table keyed by folder (after VS Code's code-layering): read by the lint rule
 * (layering-rule.mjs) that checks every import as it is written, and by layering.test.ts, which adds the
 * cycle check. Plain JavaScript so that eslint.config.js can load it without a TypeScript step.
 */

/** Layer → the layers it may import (its own always). The most specific folder prefix names a file's layer. */
export const MAY_IMPORT = {
  shared: [],
  'electron/services': ['shared'],
  'electron/bridge': ['shared', 'electron/services'],
  // The CLI is a shell: its serve command hosts the bridge's handler table over HTTP.
  'electron/cli': ['shared', 'electron/services', 'electron/bridge', 'electron/serve'],
  'electron/serve': ['shared', 'electron/services', 'electron/bridge', 'electron/main'],
  'electron/main': ['shared', 'electron/services', 'electron/bridge', 'electron/serve'],
  'electron/preload': ['shared'],
  'electron/tools': ['shared', 'electron/services', 'electron/cli'],
  'electron/testing': ['shared', 'electron/services', 'electron/bridge', 'electron/cli'],
  'renderer/src/app': ['shared', 'renderer/src/features', 'renderer/src/workspace', 'renderer/src/bridge', 'renderer/src/components'],
  'renderer/src/features': ['shared', 'renderer/src/workspace', 'renderer/src/bridge', 'renderer/src/components'],
  'renderer/src/workspace': ['shared'],
  'renderer/src/bridge': ['shared'],
  'renderer/src/components': ['shared'],
  'renderer/src': ['shared', 'renderer/src/app', 'renderer/src/bridge'],
  bench: ['shared', 'electron/services', 'electron/cli', 'electron/testing'],
};

/** Longest prefix first, so a file falls in its most specific layer. */
const LAYERS = Object.keys(MAY_IMPORT).sort((a, b) => b.length - a.length);

/** The layer of a repo-relative path (forward slashes), or undefined when it sits in none. */
export function layerOf(file) {
  return LAYERS.find((layer) => file === layer || file.startsWith(`${layer}/`));
}

/** Test support (a `testing` folder or a `testing-*` file) may reach the test fixtures wherever it lives. */
export function isTestSupport(file) {
  return /(^|\/)testing(\/|-)/.test(file);
}

/**
 * Why `file` may not import `target` (both repo-relative), or undefined when it may: a path outside every
 * layer is not governed here, and a layer may always import itself.
 */
export function layeringBreach(file, target) {
  const from = layerOf(file);
  const to = layerOf(target);
  if (from === undefined || to === undefined || to === from || MAY_IMPORT[from].includes(to)) return undefined;
  if (to === 'electron/testing' && isTestSupport(file)) return undefined;
  return `${from} may not import ${to}`;
}
