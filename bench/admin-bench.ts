/**
 * Side by side with what users use today (#15 target 5): `dynamodb-admin` (npm), started as its own
 * process on the same DynamoDB Local, and its own JSON API paged through every `UNIQ#` item of the
 * bench table the way its UI pages (a begins_with filter on the partition key, the largest page size
 * its UI offers). Measured in the same run as `locksmith audit`; the count is checked against what
 * the generator planted, so the figure never describes a partial listing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The largest page size dynamodb-admin's table view offers (its `pageSize` select). */
export const ADMIN_PAGE_SIZE = 10_000;

/** What one paging of the lock items through dynamodb-admin took. */
export interface AdminFigures {
  readonly ms: number;
  readonly items: number;
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
export async function benchAdmin(endpoint: string, table: string, prefix: string, expected: number): Promise<AdminFigures> {
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
      const response = await fetch(`${url}/tables/${encodeURIComponent(table)}/items?${query}`, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`dynamodb-admin answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      const page = (await response.json()) as AdminPage;
      pages++;
      items += page.Items.length;
      if (!page.nextKey) break;
      startKey = page.nextKey;
    }
    const ms = performance.now() - started;
    if (items !== expected) throw new Error(`dynamodb-admin listed ${items} items under ${prefix}, the generator planted ${expected}`);
    return { ms, items, pages, pageSize: ADMIN_PAGE_SIZE, version };
  } finally {
    child.kill();
  }
}

/** The side-by-side line of the report: what each took and what each gives the user at the end. */
export function adminLine(admin: AdminFigures, cliMs: number | undefined, problems: number): string {
  const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const listed = `dynamodb-admin ${admin.version}: ${secs(admin.ms)} to page through the ${admin.items.toLocaleString('en-US')} \`UNIQ#\` items (its largest page, ${admin.pageSize.toLocaleString('en-US')}; ${admin.pages} pages; it scans 10 items per request) — a list of lock items, which the user must still match to accounts by hand`;
  if (cliMs === undefined) return listed;
  return `${listed}; \`locksmith audit\` (whole process, median, same run): ${secs(cliMs)} — every account and lock joined, ${problems.toLocaleString('en-US')} problems by kind (${(admin.ms / cliMs).toFixed(1)}× faster)`;
}
