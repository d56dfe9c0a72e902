#!/usr/bin/env node
// `npm run screenshots`: builds the app, then runs the screenshots e2e against the sandbox and keeps
// its light inspector as docs/images/inspector.png (the README's picture).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const images = join(root, 'docs', 'images');
mkdirSync(images, { recursive: true });

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('npm', ['run', 'build']);
run('npx', ['playwright', 'test', 'e2e/screenshots.spec.ts', '--project', 'browser-mode', '--grep', 'light'], {
  ...process.env,
  LOCKSMITH_DOCS_IMAGES: images,
});
process.stdout.write(`wrote ${join('docs', 'images', 'inspector.png')}\n`);
