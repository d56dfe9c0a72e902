#!/usr/bin/env node
// `npm start`: builds what is stale, then launches Electron — or, where no Electron binary can be
// had (offline installs: electron 45 fetches it on first launch), says so in one line and starts
// browser mode instead, printing the URL. Extra arguments go to `locksmith serve` (e.g. `npm start -- --port 5174`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rendererBuildCommand, rendererStale, stale } from './renderer-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(root, ...parts);

function run(label, command, args) {
  process.stderr.write(`${label}…\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`npm start: ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
}

/** The Electron binary, found without require('electron') (which would try to download it). */
function electronBinary() {
  const pathFile = at('node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = at('node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const shared = [at('shared'), at('package.json')];
if (rendererStale(root)) {
  const build = rendererBuildCommand(root);
  if (!build) {
    process.stderr.write('npm start: the renderer is not built and Vite is not installed (npm install, then npm run build)\n');
    process.exit(1);
  }
  run('building the renderer (vite build)', ...build);
}

const binary = electronBinary();
const forward = (child) => {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
};

if (binary) {
  if (stale(at('dist-electron', 'main.cjs'), [at('electron'), ...shared]))
    run('bundling the Electron main process', process.execPath, [at('bin', 'build-electron.mjs')]);
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  forward(spawn(binary, [root], { cwd: root, stdio: 'inherit', env }));
} else {
  process.stderr.write(
    'No Electron binary on this machine (node_modules/electron/dist is missing: it is fetched on first launch and this machine is offline) — starting browser mode instead.\n',
  );
  forward(spawn(process.execPath, [at('bin', 'locksmith'), 'serve', '--open', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }));
}
