/** The repository's tracked files, for tests that read the docs and the sources as text. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every file git tracks (paths relative to the root, `/`-separated). */
export function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
}

/** The Markdown pages a reader is sent to: the README and everything under docs/. */
export function docPages(): string[] {
  return trackedFiles().filter(
    (path) => path.endsWith('.md') && (path === 'README.md' || path.startsWith('docs/') || path.startsWith('shared/conventions/')),
  );
}

/** A tracked file's text. */
export function readRepoFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/** Paths the docs name on purpose although they are not in this tree. */
export const ABSENT_ON_PURPOSE: Readonly<Record<string, string>> = {
  'docs/security.md': 'the threat model, written beside this branch',
  'e2e/testing/': 'where e2e/support/ moves, as architecture.md says',
  'bench/results.json': 'written by npm run bench (gitignored)',
  'bench/export-results.json': 'written by npm run bench (gitignored)',
};
