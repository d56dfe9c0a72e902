/**
 * Runs Electronegativity over the main process and preload and fails on any HIGH or MEDIUM finding
 * that has not been reviewed. The CLI always exits 0 (and its CSV output is malformed for some
 * checks), so this uses the package's own `run()` and decides the exit code itself.
 * Usage: tsx electron/tools/check-electronegativity.ts [input dir, default electron/]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One finding as Electronegativity's runner returns it. */
export interface Finding {
  readonly id: string;
  readonly file: string;
  readonly location: { readonly line: number; readonly column: number };
  readonly severity: { readonly name: string };
  readonly confidence: { readonly name: string };
  readonly description?: string;
  readonly manualReview?: boolean;
}

/** A finding a person reviewed: which check, in which file, and why it is safe. */
export interface Reviewed {
  readonly id: string;
  readonly file: string;
  readonly reason: string;
}

/**
 * Findings reviewed and accepted. Each must still occur (a stale entry fails the check), so the
 * list cannot silently outlive the code it excuses.
 */
export const REVIEWED: readonly Reviewed[] = [
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'electron/main/main.ts',
    reason:
      'the only shell.openExternal call; every caller goes through openExternalSafely (https only, no credentials in the URL), tested in main.test.ts',
  },
  {
    id: 'PRELOAD_JS_CHECK',
    file: 'electron/main/main.ts',
    reason: 'our own bundled preload: exposes only call/subscribe through contextBridge, never ipcRenderer; sandboxed and context-isolated',
  },
];

/** Severities that fail the check. */
const FAILING = new Set(['HIGH', 'MEDIUM']);

/** Splits findings into failures (HIGH/MEDIUM, not reviewed) and reviewed entries that matched nothing. */
export function judge(
  findings: readonly Finding[],
  root: string,
  reviewed: readonly Reviewed[] = REVIEWED,
): { failures: Finding[]; stale: Reviewed[] } {
  const rel = (file: string): string => relative(root, file).split('\\').join('/');
  const isReviewed = (f: Finding): boolean => reviewed.some((r) => r.id === f.id && r.file === rel(f.file));
  const failures = findings.filter((f) => FAILING.has(f.severity.name.toUpperCase()) && !isReviewed(f));
  const stale = reviewed.filter((r) => !findings.some((f) => f.id === r.id && rel(f.file) === r.file));
  return { failures, stale };
}

type Runner = (
  options: Record<string, unknown>,
) => Promise<{ issues: Finding[]; errors: { file: string; message: string; tolerable?: boolean }[] }>;

async function main(): Promise<number> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const input = resolve(root, process.argv[2] ?? 'electron');
  const require = createRequire(import.meta.url);
  const run = require('@doyensec/electronegativity') as Runner;
  const electronVersion = (JSON.parse(readFileSync(resolve(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
    .version;
  const result = await run({
    input,
    electronVersionOverride: electronVersion,
    isRelative: false,
    customScan: [],
    excludeFromScan: [],
    parserPlugins: [],
  });
  const hardErrors = result.errors.filter((e) => !e.tolerable);
  for (const error of hardErrors) process.stderr.write(`electronegativity: could not parse ${error.file}: ${error.message}\n`);
  const { failures, stale } = judge(result.issues, root);
  for (const f of result.issues) {
    process.stdout.write(
      `${f.severity.name.padEnd(13)} ${f.confidence.name.padEnd(9)} ${f.id} ${relative(root, f.file)}:${f.location.line}:${f.location.column}\n`,
    );
  }
  for (const f of failures)
    process.stderr.write(`FAIL ${f.id} (${f.severity.name}) at ${relative(root, f.file)}:${f.location.line}: ${f.description ?? ''}\n`);
  for (const r of stale) process.stderr.write(`FAIL reviewed entry no longer matches any finding (remove it): ${r.id} in ${r.file}\n`);
  const ok = failures.length === 0 && stale.length === 0 && hardErrors.length === 0;
  process.stdout.write(
    ok
      ? `electronegativity: no unreviewed HIGH or MEDIUM findings (${result.issues.length} finding(s), ${REVIEWED.length} reviewed)\n`
      : 'electronegativity: check failed\n',
  );
  return ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`electronegativity check crashed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
