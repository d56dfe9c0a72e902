/**
 * Side by side with what users use today (#15 target 5): `dynamodb-admin` (npm), started as its own
 * process on the same DynamoDB Local, and its own JSON API paged through every `UNIQ#` item of the
 * bench table the way its UI pages (a begins_with filter on the partition key, a page size its UI
 * offers). Measured in the same run as `locksmith audit`. A complete listing's count is checked
 * against what the generator planted; paging stops at a time budget (it scans 10 items per request,
 * so a 200k table takes far longer than a bench can wait), and a stopped listing says so and gives
 * the whole listing's time only as an extrapolation, labelled as such.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A page size dynamodb-admin's table view offers (its `pageSize` select: 25 … 10,000). The total
 * work does not depend on it (10 items per Scan either way); 10,000 made one page outlast the HTTP
 * client's 5-minute header timeout at 200k items.
 */
export const ADMIN_PAGE_SIZE = 1_000;
/** How long the bench pages before it stops and extrapolates. */
export const ADMIN_BUDGET_MS = 120_000;

/** What one paging of the lock items through dynamodb-admin took. */
export interface AdminFigures {
  readonly ms: number;
  readonly items: number;
  /** The lock items the generator planted (what a complete listing holds). */
  readonly expected: number;
  /** False when paging stopped at the time budget. */
  readonly complete: boolean;
  /** HTTP requests to dynamodb-admin (one per UI page). */
  readonly pages: number;
  readonly pageSize: number;
  readonly version: string;
}

/** The page dynamodb-admin's `/tables/:name/items` answers (the fields this bench reads). */
interface AdminPage {
  readonly Items: readonly unknown[];
  readonly nextKey: string | null;
}

function adminScript(): { script: string; version: string } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('dynamodb-admin/package.json');
  const { version, bin } = require(manifest) as { version: string; bin: Record<string, string> };
  return { script: join(dirname(manifest), bin['dynamodb-admin']!), version };
}

/** Starts dynamodb-admin on a free loopback port; resolves with its base URL once it listens. */
async function startAdmin(script: string, endpoint: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--host', '127.0.0.1', '--port', '0', '--dynamo-endpoint', endpoint], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: 'locksmith', AWS_SECRET_ACCESS_KEY: 'locksmith', AWS_REGION: 'us-east-1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        child.stdout?.off('data', onData);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`dynamodb-admin exited (${String(code)}) before listening: ${out.trim().slice(-500)}`)));
    child.once('error', reject);
  });
}

/** Pages every item whose partition key starts with `prefix` through dynamodb-admin's API, as its UI does. */
export async function benchAdmin(
  endpoint: string,
  table: string,
  prefix: string,
  expected: number,
  budgetMs = ADMIN_BUDGET_MS,
): Promise<AdminFigures> {
  const { script, version } = adminScript();
  const { child, url } = await startAdmin(script, endpoint);
  try {
    const filters = JSON.stringify({ PK: { type: 'S', value: prefix, operator: 'begins_with' } });
    let items = 0;
    let pages = 0;
    // The UI's Next link carries the answer's nextKey as it is (already URI-encoded JSON).
    let startKey = '';
    const started = performance.now();
    for (;;) {
      const query = `filters=${encodeURIComponent(filters)}&pageSize=${ADMIN_PAGE_SIZE}${startKey ? `&startKey=${startKey}` : ''}`;
      const response = await fetch(`${url}/tables/${encodeURIComponent(table)}/items?${query}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`dynamodb-admin answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      const page = (await response.json()) as AdminPage;
      pages++;
      items += page.Items.length;
      if (!page.nextKey) break;
      startKey = page.nextKey;
      if (performance.now() - started > budgetMs) break;
    }
    const ms = performance.now() - started;
    const complete = startKey === '' || items >= expected;
    if (complete && items !== expected)
      throw new Error(`dynamodb-admin listed ${items} items under ${prefix}, the generator planted ${expected}`);
    return { ms, items, expected, complete, pages, pageSize: ADMIN_PAGE_SIZE, version };
  } finally {
    child.kill();
  }
}

/** The side-by-side line of the report: what each took and what each gives the user at the end. */
export function adminLine(admin: AdminFigures, cliMs: number | undefined, problems: number): string {
  const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const n = (x: number): string => x.toLocaleString('en-US');
  const how = `pages of ${n(admin.pageSize)}; it scans 10 items per request`;
  const whole = admin.complete ? admin.ms : (admin.ms * admin.expected) / Math.max(1, admin.items);
  const listed = admin.complete
    ? `dynamodb-admin ${admin.version}: ${secs(admin.ms)} to page through the ${n(admin.items)} \`UNIQ#\` items (${admin.pages} ${how}) — a list of lock items, which the user must still match to accounts by hand`
    : `dynamodb-admin ${admin.version}: ${n(admin.items)} of the ${n(admin.expected)} \`UNIQ#\` items in ${secs(admin.ms)} (${admin.pages} ${how}; stopped at the bench's time budget) — the whole listing would take ~${(whole / 60_000).toFixed(0)} min (**extrapolated, not measured**), and gives a list of lock items the user must still match to accounts by hand`;
  if (cliMs === undefined) return listed;
  return `${listed}; \`locksmith audit\` (whole process, median, same run): ${secs(cliMs)} — every account and lock joined, ${n(problems)} problems by kind (${(whole / cliMs).toFixed(0)}× faster${admin.complete ? '' : ', against the extrapolation'})`;
}
