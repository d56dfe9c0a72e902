/**
 * The convention warnings of the last complete audit of each table, remembered in the data folder so
 * that a later `claim` or `release` under a warned rule knows it (a single write scans nothing). The
 * warning stands for the convention the audit ran with: a claim under that same convention, unless it
 * was passed as a reviewed `--convention FILE`, is refused. The file holds table places, conventions
 * and the warnings' sentences only (no credentials, no item data).
 */
import { join } from 'node:path';
import type { ConventionWarning } from '../../shared/audit/fit';
import type { Convention } from '../../shared/model';
import { resolveDataDir } from '../services/connections/data-dir';
import type { CliIo } from './command';
import { readCacheEntries, writeCacheEntries } from './cache-file';

/** The cache file of standing warnings, beside the remembered conventions. */
export function warningCachePath(env: NodeJS.ProcessEnv): string {
  return join(resolveDataDir(env), 'cache', 'warnings.json');
}

/** What is kept of a warning: the rule and the sentence. */
type Kept = Pick<ConventionWarning, 'rule' | 'message'>;
type Remembered = [place: string, convention: string, warnings: Kept[]];

function isRemembered(e: unknown): e is Remembered {
  return (
    Array.isArray(e) &&
    typeof e[0] === 'string' &&
    typeof e[1] === 'string' &&
    Array.isArray(e[2]) &&
    (e[2] as unknown[]).every((w) => typeof (w as Kept | null)?.rule === 'string' && typeof (w as Kept).message === 'string')
  );
}

/**
 * Records what a complete audit of `place` under `convention` found: its warnings replace the ones
 * remembered for that convention, and a clean audit forgets them. Best effort: a cache that cannot be
 * written is no error (the audit's own output already said it).
 */
export async function rememberWarnings(
  env: NodeJS.ProcessEnv,
  place: string,
  convention: Convention,
  report: { readonly complete: boolean; readonly warnings: readonly ConventionWarning[] },
): Promise<void> {
  if (!report.complete) return;
  const path = warningCachePath(env);
  const text = JSON.stringify(convention);
  const all = await readCacheEntries(path);
  const entries = all.filter((e) => isRemembered(e) && !(e[0] === place && e[1] === text));
  // A clean audit of a table nothing was remembered for writes no file.
  if (report.warnings.length === 0 && entries.length === all.length) return;
  if (report.warnings.length > 0)
    entries.push([place, text, report.warnings.map((w) => ({ rule: w.rule, message: w.message }))] satisfies Remembered);
  await writeCacheEntries(env, path, entries);
}

/** The warning standing for `rule` of `convention` on `place`, if the last complete audit gave one. */
export async function standingWarning(
  env: NodeJS.ProcessEnv,
  place: string,
  convention: Convention,
  rule: string,
): Promise<Kept | undefined> {
  const text = JSON.stringify(convention);
  const hit = (await readCacheEntries(warningCachePath(env))).find(
    (e): e is Remembered => isRemembered(e) && e[0] === place && e[1] === text,
  );
  return hit?.[2].find((w) => w.rule === rule);
}

/**
 * Refuses a write to a warned rule's locks unless the convention was passed as a reviewed
 * `--convention FILE` (a detected or preset convention is what the audit found the table contradicts).
 * Returns the exit code when refused.
 */
export async function warnedRuleGate(
  io: CliIo,
  gate: {
    readonly place: string;
    readonly resolved: { readonly convention: Convention; readonly source: string };
    readonly rule: string;
    readonly dryRun: boolean;
    readonly refusedCode: number;
  },
): Promise<number | undefined> {
  const { resolved } = gate;
  if (resolved.source === 'file') return undefined;
  const warning = await standingWarning(io.env, gate.place, resolved.convention, gate.rule);
  if (warning === undefined) return undefined;
  const why = `${warning.message} (the last audit of this table under this ${resolved.source} convention)`;
  // A dry run sends nothing: it may show what the convention would write, with the warning.
  if (gate.dryRun) {
    io.stderr(`locksmith: warning: ${why}\n`);
    return undefined;
  }
  io.stderr(
    `locksmith: refused: ${why}. Nothing was sent — to fix: review the convention (\`locksmith detect\`), save it and pass it as --convention FILE, then audit again\n`,
  );
  return gate.refusedCode;
}
