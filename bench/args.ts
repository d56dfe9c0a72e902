/** `npm run bench` flags (pure; unit-tested). */
import { parseArgs } from 'node:util';

/** What one benchmark run does. */
export interface BenchArgs {
  /** Items in the seeded table (default 200,000). */
  readonly items: number;
  /** Runs of each measured variant; the report takes medians (default 3). */
  readonly runs: number;
  /** Print only the JSON results on stdout. */
  readonly json: boolean;
  /** Skip the Playwright UI benchmark. */
  readonly skipUi: boolean;
  /** Only the UI benchmark (for iterating on the renderer): no scans, no lookups, docs untouched. */
  readonly uiOnly: boolean;
  /** Parallel scan segments of the audit and the parallel baseline (default 4, the CLI's default on an endpoint). */
  readonly segments: number;
  /** DynamoDB Local's JVM heap (default 2g; 4g from 500k items). */
  readonly heap: string;
  /** Lookups per variant (the scan variant reads the whole table each time, so it gets fewer). */
  readonly lookups: number;
  /** Items in the generated export the export audit is measured on (default: --items; 0 skips it). */
  readonly exportItems: number;
  /** Only the export benchmark: no DynamoDB Local, no live baseline, docs untouched. */
  readonly exportOnly: boolean;
  /** Only whole processes: `--help` start-up and the CLI audit vs a raw-scan process (docs untouched). */
  readonly cliOnly: boolean;
  /** Rounds of the start-up measurement (node -e 0, --help from the bundle, --help through tsx; default 15). */
  readonly startupRuns: number;
  /** Also page the lock items through dynamodb-admin beside the CLI audit (minutes at 200k items: opt-in). */
  readonly admin: boolean;
}

/** Usage text. */
export const BENCH_USAGE = `Usage: npm run bench -- [--items N] [--runs K] [--segments S] [--heap 2g] [--lookups L] [--skip-ui | --ui-only] [--export-items N | --export-only] [--cli-only] [--startup-runs N] [--admin] [--json]`;

function positiveInt(text: string | undefined, name: string, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const clean = text.replace(/[_,]/g, '');
  const value = /^\d+$/.test(clean) ? Number(clean) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new Error(`--${name} must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

/** Parses the flags; throws with a one-line message on anything unknown or out of range. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      items: { type: 'string' },
      runs: { type: 'string' },
      segments: { type: 'string' },
      heap: { type: 'string' },
      lookups: { type: 'string' },
      json: { type: 'boolean' },
      'skip-ui': { type: 'boolean' },
      'ui-only': { type: 'boolean' },
      'export-items': { type: 'string' },
      'export-only': { type: 'boolean' },
      'cli-only': { type: 'boolean' },
      'startup-runs': { type: 'string' },
      admin: { type: 'boolean' },
    },
  });
  const items = positiveInt(values.items, 'items', 200_000, 10_000_000);
  if (values['skip-ui'] === true && values['ui-only'] === true) throw new Error('--skip-ui and --ui-only exclude each other');
  if (values['cli-only'] === true && (values['ui-only'] === true || values['export-only'] === true))
    throw new Error('--cli-only excludes --ui-only and --export-only');
  if (values.admin === true && (values['export-only'] === true || values['ui-only'] === true))
    throw new Error('--admin needs the live table: not with --export-only or --ui-only');
  const heap = values.heap ?? (items >= 500_000 ? '4g' : '2g');
  if (!/^\d+[mg]$/i.test(heap)) throw new Error(`--heap must look like 2g or 1536m, got ${JSON.stringify(heap)}`);
  return {
    items,
    runs: positiveInt(values.runs, 'runs', 3, 50),
    segments: positiveInt(values.segments, 'segments', 4, 64),
    heap,
    lookups: positiveInt(values.lookups, 'lookups', 40, 10_000),
    json: values.json === true,
    skipUi: values['skip-ui'] === true,
    uiOnly: values['ui-only'] === true,
    exportItems: values['export-items'] === '0' ? 0 : positiveInt(values['export-items'], 'export-items', items, 100_000_000),
    exportOnly: values['export-only'] === true,
    cliOnly: values['cli-only'] === true,
    startupRuns: positiveInt(values['startup-runs'], 'startup-runs', 15, 1_000),
    admin: values.admin === true,
  };
}
