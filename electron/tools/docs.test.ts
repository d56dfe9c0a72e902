/**
 * The docs hold to the code: every `locksmith <command> …` they show parses with that command's own
 * flags (as `--help` lists them), and every repository path they name or link exists.
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '../cli/args';
import { CliError } from '../cli/command';
import { findCommand } from '../cli/registry';
import { ABSENT_ON_PURPOSE, REPO_ROOT, docPages, readRepoFile, trackedFiles } from './doc-files';

/** The text of fenced code blocks (continuation lines joined) and of inline code spans. */
function codeOf(markdown: string): { blocks: string[]; spans: string[] } {
  const blocks: string[] = [];
  const spans: string[] = [];
  let inFence = false;
  let current: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (inFence) blocks.push(current.join('\n').replace(/\\\n\s*/g, ' '));
      inFence = !inFence;
      current = [];
    } else if (inFence) current.push(line);
    else for (const match of line.matchAll(/`([^`]+)`/g)) spans.push(match[1] ?? '');
  }
  return { blocks, spans };
}

/** Shell words of one command line, up to a redirection, a pipe or a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    const bare = match[3];
    if (bare !== undefined && (bare.startsWith('>') || bare === '|' || bare.startsWith('#') || bare === '&&')) break;
    words.push(match[1] ?? match[2] ?? bare ?? '');
  }
  return words;
}

/** A `locksmith <command> …` shown in a page: a whole line of a code block, or an inline mention. */
interface Shown {
  readonly text: string;
  readonly inline: boolean;
}

const LOCKSMITH = /^(?:\.\/bin\/)?locksmith ([a-z][\w|…-]*)(.*)$/;

/** Every `locksmith <command> …` in a page: from code blocks (one per line) and inline code. */
function commandsShown(markdown: string): Shown[] {
  const { blocks, spans } = codeOf(markdown);
  const lines = blocks.flatMap((block) => block.split('\n')).map((line) => ({ text: line.trim().replace(/^\$ /, ''), inline: false }));
  return [...lines, ...spans.map((text) => ({ text: text.trim(), inline: true }))]
    .map(({ text, inline }) => ({ match: LOCKSMITH.exec(text), inline }))
    .filter((shown): shown is { match: RegExpExecArray; inline: boolean } => shown.match !== null)
    .map(({ match, inline }) => ({ text: `${match[1]}${match[2]}`, inline }));
}

/** A synopsis (`[--json]`, `<key json>`, `…`) names flags but is no command line to parse. */
const isSynopsis = (args: string): boolean => /[[<…|]/.test(args);

/** Why a command shown does not hold, or undefined when it does. */
async function shownProblem({ text, inline }: Shown): Promise<string | undefined> {
  const [first = '', ...args] = shellWords(text);
  const names = first.split('|').filter((name) => name !== '…' && name !== '');
  for (const name of names) if (!findCommand(name)) return `no command ${JSON.stringify(name)}`;
  if (names.length !== 1) return undefined;
  const command = await findCommand(names[0] ?? '')?.load();
  if (!command) return undefined;
  if (inline || isSynopsis(text)) {
    // A mention names flags without values: each must be one of the command's own.
    const known = allFlags(command);
    const unknown = args
      .filter((word) => word.startsWith('--'))
      .map((word) => word.slice(2).split('=')[0] ?? '')
      .filter((flag) => known[flag] === undefined);
    return unknown.length > 0 ? `unknown flags ${unknown.map((f) => `--${f}`).join(', ')}` : undefined;
  }
  try {
    parseFlags(command, args);
    return undefined;
  } catch (error) {
    return error instanceof CliError ? error.message : String(error);
  }
}

const PATH_START =
  /^(?:electron|shared|renderer|bench|bin|e2e|docs|\.ci)\/[\w./-]*$|^(?:package\.json|electron-builder\.yml|\.nvmrc|vite\.config\.ts|playwright\.config\.ts|eslint\.config\.js)$/;

/** Repository paths a page names: inline code that looks like one, and relative links. */
function namedPaths(page: string, markdown: string): string[] {
  const { spans } = codeOf(markdown);
  const fromSpans = spans.map((s) => s.trim()).filter((s) => PATH_START.test(s));
  const fromLinks = [...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => normalize(join(dirname(page), target)));
  return [...fromSpans, ...fromLinks];
}

/** An identifier in inline code: `applyAuditDeltas`, `AuditEngine.takeDelta`, `runAudit()`. */
const SYMBOL = /^(?:[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[A-Z][a-z]+[A-Z][a-zA-Z0-9]*)(?:\.[a-zA-Z][a-zA-Z0-9]*)?$/;

/** The code symbols a page names in inline code. */
function namedSymbols(markdown: string): string[] {
  return codeOf(markdown)
    .spans.map((span) => span.trim().replace(/\(\)$/, ''))
    .filter((span) => SYMBOL.test(span));
}

describe('the docs', () => {
  const pages = docPages();

  it('are found (README.md and docs/)', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/cli.md');
    expect(pages).toContain('docs/conventions.md');
  });

  it('show only `locksmith` commands that parse', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const shown of commandsShown(readRepoFile(page))) {
        checked++;
        const problem = await shownProblem(shown);
        if (problem) problems.push(`${page}: locksmith ${shown.text} — ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  }, 60_000);

  it('name only paths that exist', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const path of namedPaths(page, readRepoFile(page))) {
        if (ABSENT_ON_PURPOSE[path] !== undefined) continue;
        if (!existsSync(join(REPO_ROOT, path)) && !existsSync(join(REPO_ROOT, dirname(page), path))) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('name only code symbols the sources hold', () => {
    const sources = trackedFiles()
      .filter((path) => /\.(ts|tsx|mjs)$/.test(path))
      .map(readRepoFile)
      .join('\n');
    const words = new Set(sources.match(/[A-Za-z_$][\w$]*/g) ?? []);
    const missing: string[] = [];
    for (const page of pages) {
      for (const symbol of namedSymbols(readRepoFile(page))) {
        const absent = symbol.split('.').filter((part) => !words.has(part));
        if (absent.length > 0) missing.push(`${page}: ${symbol}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('README.md stays a five-minute read (≤ 200 lines) and docs/benchmarks.md a reference (≤ 500)', () => {
    expect(readRepoFile('README.md').split('\n').length).toBeLessThanOrEqual(200);
    expect(readRepoFile('docs/benchmarks.md').split('\n').length).toBeLessThanOrEqual(500);
  });
});
