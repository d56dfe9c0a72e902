// Whether the built renderer (dist/renderer) is older than its sources, and the build that refreshes it.
// Shared by `npm start` (bin/start.mjs) and `locksmith serve`. Plain JavaScript with node:* imports only:
// bin/start.mjs runs it without a TypeScript loader. Paths come from the caller, never from this file's
// location (the CLI may run from a bundle elsewhere).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time under the given files/folders, tests and dot-folders skipped (0 when none exist). */
export function newest(paths) {
  let max = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const info = statSync(path);
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && !name.startsWith('.')) visit(join(path, name));
    } else if (!/\.test\.tsx?$/.test(path)) max = Math.max(max, info.mtimeMs);
  };
  for (const path of paths) visit(path);
  return max;
}

/** True when `output` is missing or older than any of `inputs`. */
export const stale = (output, inputs) => !existsSync(output) || statSync(output).mtimeMs < newest(inputs);

/** The built renderer's entry page under a checkout. */
export const rendererEntry = (root) => join(root, 'dist', 'renderer', 'index.html');

/** What the renderer build reads: its sources, shared/, the Vite config and package.json. */
export const rendererInputs = (root) => [
  join(root, 'renderer'),
  join(root, 'vite.config.ts'),
  join(root, 'shared'),
  join(root, 'package.json'),
];

/** True when the renderer must be (re)built before it is served. */
export const rendererStale = (root) => stale(rendererEntry(root), rendererInputs(root));

/** The command that builds the renderer (Vite from the checkout's node_modules), or undefined when Vite is not installed. */
export function rendererBuildCommand(root) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return existsSync(vite) ? [process.execPath, [vite, 'build', '--logLevel', 'warn']] : undefined;
}

/** Runs the renderer build in `root` with Vite's output on this process's stderr; resolves with its exit code. */
export function buildRenderer(root) {
  const command = rendererBuildCommand(root);
  if (!command) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = spawn(command[0], command[1], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
