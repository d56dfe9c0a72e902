/**
 * A scan audit started before its convention is known, with the convention detection gave for the same
 * table and flags last time. Detection needs a sample, and the sample, DescribeTable and detection take
 * a noticeable part of a second before the first page of the audit can be asked for; most
 * audits of a table detect what they detected before. So the audit starts at once with the remembered
 * convention, on the key schema that convention carries, while the table is described and the sample is
 * read and detection runs as always; it is kept only when the described keys are the convention's and
 * detection gave exactly (JSON for JSON) the convention it ran with.
 * Otherwise it is aborted, its engine dropped, and the audit runs again with the detected convention —
 * the report is always the one the detected convention gives (speculative-audit.int.test.ts).
 * The file holds table names and conventions only (no credentials, no item data).
 */
import { join } from 'node:path';
import type { AuditRun } from '../services/audit/run-audit';
import { resolveDataDir } from '../services/connections/data-dir';
import type { Convention, KeySchema } from '../../shared/model';
import { readCacheEntries, writeCacheEntries } from './cache-file';

/** The cache file of remembered conventions, in the data folder's cache. */
export function conventionCachePath(env: NodeJS.ProcessEnv): string {
  return join(resolveDataDir(env), 'cache', 'conventions.json');
}

/** What detection's outcome depends on besides the table: the preset asked for and the sample's segments. */
export function detectionRequest(preset: string | undefined, segments: number): string {
  return JSON.stringify([preset ?? '', segments]);
}

type Remembered = [place: string, request: string, convention: Convention];

function isRemembered(e: unknown): e is Remembered {
  if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'string') return false;
  const c = e[2] as Partial<Convention> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.keys === 'object' &&
    Array.isArray(c.rules) &&
    Array.isArray(c.lockPrefixes) &&
    typeof c.account === 'object'
  );
}

/** The convention detection gave last time for `place` and `request`, if any (unverified: see startSpeculativeAudit). */
export async function rememberedConvention(env: NodeJS.ProcessEnv, place: string, request: string): Promise<Convention | undefined> {
  const hit = (await readCacheEntries(conventionCachePath(env))).find(
    (e): e is Remembered => isRemembered(e) && e[0] === place && e[1] === request,
  );
  return hit?.[2];
}

/** Remembers what detection gave. Best effort: a cache that cannot be written is no error. */
export async function rememberConvention(env: NodeJS.ProcessEnv, place: string, request: string, convention: Convention): Promise<void> {
  const path = conventionCachePath(env);
  const entries = (await readCacheEntries(path)).filter((e) => isRemembered(e) && !(e[0] === place && e[1] === request));
  entries.push([place, request, convention] satisfies Remembered);
  await writeCacheEntries(env, path, entries);
}

/** An audit run started with a remembered convention; see the file comment. */
export interface SpeculativeAudit {
  /**
   * The run, when it was started with exactly `convention` and `keys` (the described table's) are its keys; otherwise it is
   * aborted and undefined comes back (the caller runs the audit itself, and remembers `convention`).
   */
  readonly confirm: (convention: Convention, keys: KeySchema) => Promise<AuditRun | undefined>;
  /** Stops the run (an error before the convention was resolved). */
  readonly abort: () => void;
}

/**
 * Starts `start(convention, signal)` as soon as a convention remembered for `place`/`request` is read,
 * on the keys it carries (unconfirmed until `confirm` gets the described keys).
 */
export function startSpeculativeAudit(
  env: NodeJS.ProcessEnv,
  place: string,
  request: Promise<string>,
  start: (convention: Convention, signal: AbortSignal) => Promise<AuditRun>,
): SpeculativeAudit {
  const controller = new AbortController();
  const started = request
    .then((r) => rememberedConvention(env, place, r))
    .then((convention) => {
      if (convention === undefined || controller.signal.aborted) return undefined;
      const run = start(convention, controller.signal);
      run.catch(() => undefined);
      return { text: JSON.stringify(convention), run };
    })
    // A remembered convention the engine cannot even start with is as good as none.
    .catch(() => undefined);
  return {
    confirm: async (convention, confirmedKeys) => {
      const spec = await started;
      if (spec === undefined) return undefined;
      if (spec.text === JSON.stringify(convention) && JSON.stringify(convention.keys) === JSON.stringify(confirmedKeys)) return spec.run;
      controller.abort();
      // Settle it before the real run starts: its sockets and engine are let go.
      await spec.run.catch(() => undefined);
      return undefined;
    },
    abort: () => controller.abort(),
  };
}
