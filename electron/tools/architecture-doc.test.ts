/**
 * docs/architecture.md walks a value through the code, naming files and functions at each hop. A walk that
 * names a function where it no longer lives sends a newcomer the wrong way, so this holds it to the code:
 * every path it names exists (`services/…` is read under electron/, a bare file name must be one tracked
 * file), every symbol it names is declared in the sources, and a symbol written beside a path
 * (`` `path` `symbol` `` or `` `symbol` (`path` ``) is declared in that file.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ABSENT_ON_PURPOSE, REPO_ROOT, readRepoFile, trackedFiles } from './doc-files';

const PAGE = 'docs/architecture.md';

/** Names that are not ours: the SDK's commands, Electron's and the browser's objects, language words. */
const FOREIGN = /^(?:[A-Z]\w*Command|[A-Z]\w*(?:Exception|Conflict)|window|contents|client|bridge|process)(?:\.|$)/;

/** A span that names a file or folder of this repository. */
const PATH_LIKE = /^[\w.-]+(?:\/[\w.-]+)*\/?$/;
const FILE_EXT = /\.(?:ts|tsx|mjs|js|md|json|yml)$/;

/** A span that names a code symbol: camelCase, PascalCase, optionally `Owner.member`, optionally `()`. */
const SYMBOL = /^(?:[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[A-Z][a-zA-Z0-9]*[a-z][a-zA-Z0-9]*)(?:\.[a-zA-Z][a-zA-Z0-9]*)?$/;

/** Inline code spans outside fenced blocks, in order. */
function spansOf(markdown: string): string[] {
  let inFence = false;
  const spans: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    else if (!inFence) for (const match of line.matchAll(/`([^`]+)`/g)) spans.push((match[1] ?? '').trim());
  }
  return spans;
}

/** The tracked file a path-like span names, or undefined when none does. */
function resolvePath(span: string, files: readonly string[]): string | undefined {
  const candidates = [span, `electron/${span}`, `renderer/src/${span}`];
  for (const candidate of candidates) if (existsSync(join(REPO_ROOT, candidate))) return candidate.replace(/\/$/, '');
  if (!span.includes('/')) {
    const matches = files.filter((file) => basename(file) === span);
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}

/** Whether `text` declares `name`: a function, class, type, variable, or a member (method or property). */
function declares(text: string, name: string): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  return (
    new RegExp(`\\b(?:function\\*?|class|interface|type|const|let|var|enum)\\s+${escaped}\\b`).test(text) ||
    new RegExp(`^\\s*(?:readonly\\s+|async\\s+|static\\s+|private\\s+)*${escaped}\\s*[?]?[(:<=]`, 'm').test(text)
  );
}

/** The whole walk's checks: missing paths, undeclared symbols, symbols not in the file named beside them. */
function problems(markdown: string): { checkedPaths: number; checkedSymbols: number; placed: number; found: string[] } {
  const files = trackedFiles();
  const sources = files.filter((file) => /\.(?:ts|tsx|mjs)$/.test(file) && !/\.(?:test|spec)\.tsx?$/.test(file));
  const texts = new Map(sources.map((file) => [file, readRepoFile(file)]));
  const found: string[] = [];
  let checkedPaths = 0;
  let checkedSymbols = 0;
  let placed = 0;
  const spans = spansOf(markdown);
  spans.forEach((span, index) => {
    const bare = span.replace(/\(\)$/, '');
    if (PATH_LIKE.test(span) && (FILE_EXT.test(span) || span.endsWith('/')) && !/^x\./.test(span)) {
      // A folder word alone (`fixtures/`, `testing/`) names a convention, not a place.
      if (/^[\w-]+\/$/.test(span) || ABSENT_ON_PURPOSE[span] !== undefined) return;
      checkedPaths++;
      if (!resolvePath(span, files)) found.push(`no file ${span}`);
      return;
    }
    if (!SYMBOL.test(bare) || FOREIGN.test(bare)) return;
    checkedSymbols++;
    const [owner = '', member] = bare.split('.');
    const homes = [...texts].filter(([, text]) => declares(text, owner)).map(([file]) => file);
    if (homes.length === 0) {
      found.push(`${bare}: declared nowhere in the sources`);
      return;
    }
    if (member !== undefined && !homes.some((home) => declares(texts.get(home) ?? '', member))) {
      found.push(`${bare}: ${owner} has no member ${member}`);
      return;
    }
    // A path written just before the symbol, or just after it in parentheses, is where it says the symbol lives.
    const before = spans[index - 1];
    const after = spans[index + 1];
    const nearby = [before, after].filter((near): near is string => near !== undefined && FILE_EXT.test(near) && PATH_LIKE.test(near));
    for (const near of nearby) {
      if (!adjacent(markdown, near, span)) continue;
      const file = resolvePath(near, files);
      if (!file) continue;
      placed++;
      if (!homes.includes(file)) found.push(`${bare}: not declared in ${file} (declared in ${homes.join(', ')})`);
    }
  });
  return { checkedPaths, checkedSymbols, placed, found };
}

/** Whether the two spans are written together: `path` `symbol`, or `symbol` (`path`…. */
function adjacent(markdown: string, path: string, symbol: string): boolean {
  const p = escapeRegExp(path);
  const s = escapeRegExp(symbol);
  return new RegExp(`\`${p}\`\\s+\`${s}\``).test(markdown) || new RegExp(`\`${s}\`\\s*\\(\`${p}\``).test(markdown);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('docs/architecture.md', () => {
  it('names only paths that exist and symbols declared where it says', () => {
    const { checkedPaths, checkedSymbols, placed, found } = problems(readRepoFile(PAGE));
    expect(found).toEqual([]);
    expect(checkedPaths).toBeGreaterThan(30);
    expect(checkedSymbols).toBeGreaterThan(30);
    expect(placed).toBeGreaterThan(10);
  });

  it('catches a symbol named beside the wrong file, and one that is gone', () => {
    const wrong = problems(
      '`electron/bridge/pipeline.ts` `lookupValue` and `notAFunctionAnywhere` and `runAudit` (`shared/audit/engine.ts`)',
    );
    expect(wrong.found).toEqual([
      expect.stringMatching(/^lookupValue: not declared in electron\/bridge\/pipeline\.ts/),
      'notAFunctionAnywhere: declared nowhere in the sources',
      expect.stringMatching(/^runAudit: not declared in shared\/audit\/engine\.ts/),
    ]);
    expect(problems('`services/no-such-area/` and `no-such-file.ts` and `fixtures/`').found).toEqual([
      'no file services/no-such-area/',
      'no file no-such-file.ts',
    ]);
  });
});
