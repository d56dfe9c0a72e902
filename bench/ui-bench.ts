/**
 * The UI in browser mode, driven by Playwright (Debian Chromium): selecting the table starts the
 * audit; the page itself records (in its own clock) the click, the first inspector row and the end
 * of the audit, every `longtask` in between, then frame times while scrolling the whole list.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { AppPage } from '../e2e/pages/app-page';
import { startServe } from '../e2e/support/server';

/** One UI run. */
export interface UiSample {
  /** Click → the audit's phase is `running` (the server answered audit.start: keys, convention and sample resolved). */
  readonly startedMs: number;
  readonly firstRowsMs: number;
  readonly completeMs: number;
  /** Durations of main-thread long tasks (> 50 ms) between the click and the end of the audit. */
  readonly longTasksMs: number[];
  /** Time between consecutive animation frames while scrolling from top to bottom. */
  readonly frameMs: number[];
  /** Rows in the list (from the row-count status line). */
  readonly rowsText: string;
  /** Long tasks during the scroll. */
  readonly scrollLongTasksMs: number[];
  /** Frame times of the baseline list (see {@link baselineScroll}) scrolled the same way in the same browser, right after. */
  readonly baselineFrameMs: number[];
  /** The tab's JS heap in use once the audit is done: the page's own and its workers' (the row store). */
  readonly heapBytes: { readonly page: number; readonly workers: number };
  /**
   * CPU time (user + system, ms) spent between the click and the end of the audit by this bench's
   * child processes, by name (`chromium`: the browser's processes; `node`: the `serve` process; `java`:
   * DynamoDB Local when the bench started it). Less swayed by the machine's load than wall time (the
   * machine is shared: only this process's descendants count); empty where /proc is absent.
   */
  readonly cpuMs: Readonly<Record<string, number>>;
}

/** CPU time (ms) of this process's descendants, summed by process name (/proc/<pid>/stat). */
export function cpuByName(): Record<string, number> {
  const procs: { pid: number; ppid: number; name: string; ms: number }[] = [];
  try {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // ppid is the line's 4th field; utime and stime its 14th and 15th, in clock ticks (100 a second).
        procs.push({
          pid: Number(pid),
          ppid: Number(fields[1]),
          name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
          ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100,
        });
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    return {};
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!mine.has(p.pid) && mine.has(p.ppid)) grew = mine.add(p.pid) !== undefined;
  }
  const out: Record<string, number> = {};
  for (const p of procs) {
    if (p.pid === process.pid || !mine.has(p.pid)) continue;
    // Chromium's processes by kind: the page's renderer, the GPU (compositing), the network service, the browser.
    const cmd = p.name === 'chromium' ? readCmdline(p.pid) : '';
    const kind =
      p.name === 'chromium'
        ? (/--utility-sub-type=\w+\.mojom\.(\w+)/.exec(cmd)?.[1] ?? /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser')
        : undefined;
    const name = kind ? `chromium ${kind}` : p.name;
    out[name] = (out[name] ?? 0) + p.ms;
  }
  return out;
}

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function cpuSince(before: Readonly<Record<string, number>>): Record<string, number> {
  const now = cpuByName();
  const out: Record<string, number> = {};
  for (const name of Object.keys(now)) {
    const ms = (now[name] ?? 0) - (before[name] ?? 0);
    if (ms > 0) out[name] = ms;
  }
  return out;
}

/**
 * The JS heap in use of a page and of every worker in the browser (the bench opens one page at a
 * time). Workers are reached through the browser's CDP session: `performance.memory` does not
 * exist in a worker, and Playwright gives no CDP session for one.
 */
export async function tabHeap(browser: Browser, page: Page): Promise<{ page: number; workers: number }> {
  const pageCdp = await page.context().newCDPSession(page);
  const own = (await pageCdp.send('Runtime.getHeapUsage')).usedSize;
  await pageCdp.detach();
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    let workers = 0;
    for (const target of targetInfos.filter((t) => t.type === 'worker')) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
      const answer = new Promise<number>((resolve) => {
        cdp.on('Target.receivedMessageFromTarget', (event) => {
          const message = JSON.parse(event.message) as { id?: number; result?: { usedSize?: number } };
          if (event.sessionId === sessionId && message.id === 1) resolve(message.result?.usedSize ?? 0);
        });
      });
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }) });
      workers += await answer;
      await cdp.send('Target.detachFromTarget', { sessionId });
    }
    return { page: own, workers };
  } finally {
    await cdp.detach();
  }
}

/** The Chromium of this machine (Playwright cannot download its own here). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** What the in-page probe records (page clock, ms). */
interface PageProbe {
  start?: number;
  running?: number;
  firstRows?: number;
  done?: number;
  longTasks: { start: number; duration: number }[];
}

/**
 * Runs in the page before any app script: a long-task observer, a capture-phase click listener
 * (the click on the table starts the audit) and a MutationObserver noting the first inspector row
 * and the end of the audit. Plain JS text: the Node tsconfig has no DOM types, by design.
 */
const PROBE_SCRIPT = `(() => {
  const probe = { sawRunning: false, longTasks: [] };
  window.__bench = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-testid^="table-"]') : null;
    if (target && probe.start === undefined) probe.start = performance.now();
  }, true);
  const check = () => {
    if (probe.start === undefined || probe.done !== undefined) return;
    if (probe.firstRows === undefined && document.querySelector('[data-testid="inspector-row"]')) probe.firstRows = performance.now();
    const phase = document.querySelector('[data-testid="inspector"]')?.getAttribute('data-audit-phase');
    if (phase && phase !== 'done') probe.sawRunning = true;
    if (phase === 'running' && probe.running === undefined) probe.running = performance.now();
    if (phase === 'done' && probe.sawRunning) probe.done = performance.now();
  };
  const start = () => new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-audit-phase'] });
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start, { once: true });
})()`;

/**
 * Page script: scrolls the inspector list top to bottom in about `steps` steps (each at least a
 * viewport), one per animation frame; resolves to the frame intervals.
 */
export function scrollScript(steps: number): string {
  return `(async () => {
  const scroller = document.querySelector('[data-testid="inspector-scroll"]');
  if (!scroller) throw new Error('no inspector-scroll element');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  scroller.scrollTop = 0;
  await frame();
  await frame();
  const max = scroller.scrollHeight - scroller.clientHeight;
  const step = Math.max(scroller.clientHeight, max / ${steps});
  const out = [];
  let last = await frame();
  let target = 0;
  // Drive by our own position (the browser may clamp scrollTop a pixel short), at most 2,000 frames.
  while (target < max && out.length < 2000) {
    target = Math.min(max, target + step);
    scroller.scrollTop = target;
    const now = await frame();
    out.push(now - last);
    last = now;
  }
  return out;
})()`;
}

/** The benchmark's scroll: ≤ ~600 steps. */
const SCROLL_SCRIPT = scrollScript(600);

const READ_PROBE = 'window.__bench';

/**
 * The scroll baseline: the least a browser must do for the same scroll on this machine. A plain
 * page with a hand-written virtual list (no framework) of as many rows as the inspector showed,
 * each a CSS grid row of five text cells at the inspector's row height and column template; on
 * every scroll event it rewrites the visible rows' text. Scrolled by the same script, so the
 * inspector's frame times can be read against it.
 */
function baselinePage(rows: number): string {
  return `<!doctype html><html><head><style>
  body { margin: 0; font: 14px system-ui, sans-serif; }
  #s { height: 700px; overflow: auto; position: relative; }
  #b { position: relative; }
  .r { position: absolute; left: 0; top: 0; width: 100%; height: 38px; display: grid; contain: strict;
       grid-template-columns: 2.2rem minmax(18rem, 2fr) repeat(2, minmax(14rem, 1fr)) minmax(12rem, 1fr);
       align-items: center; border-bottom: 1px solid #ddd; }
  .r > span { padding: 0.35rem 0.5rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  </style></head><body><div id="s" data-testid="inspector-scroll"><div id="b"></div></div><script>
  const ROWS = ${rows}, H = 38, POOL = 40;
  const s = document.getElementById('s'), b = document.getElementById('b');
  b.style.height = ROWS * H + 'px';
  const pool = [];
  for (let i = 0; i < POOL; i++) {
    const r = document.createElement('div'); r.className = 'r';
    for (let c = 0; c < 5; c++) r.appendChild(document.createElement('span'));
    b.appendChild(r); pool.push(r);
  }
  const draw = () => {
    const first = Math.floor(s.scrollTop / H);
    for (let i = 0; i < POOL; i++) {
      const n = first + i, r = pool[i];
      r.style.transform = 'translateY(' + n * H + 'px)';
      const c = r.children;
      c[0].textContent = '▸'; c[1].textContent = 'ACCT#' + n.toString(16).padStart(6, '0') + ' / PROFILE';
      c[2].textContent = 'user' + n + '@example.com'; c[3].textContent = 'handle_' + n; c[4].textContent = 'healthy';
    }
  };
  s.addEventListener('scroll', draw); draw();
  </script></body></html>`;
}

/** Frame times of the baseline list ({@link baselinePage}) scrolled top to bottom like the inspector. */
export async function baselineScroll(browser: Browser, rows: number): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(baselinePage(Math.max(1, rows)));
    return (await page.evaluate(SCROLL_SCRIPT)) as number[];
  } finally {
    await context.close();
  }
}

/** One UI run against a fresh `locksmith serve --endpoint` and a fresh page. */
export async function uiRun(browser: Browser, endpoint: string, table: string): Promise<UiSample> {
  const dataDir = mkdtempSync(join(tmpdir(), 'locksmith-bench-ui-'));
  const server = await startServe({ dataDir, args: ['--endpoint', endpoint] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: PROBE_SCRIPT });
    const app = new AppPage(page);
    await app.open(server.url);
    const connection = page.locator('[data-testid^="connection-endpoint"]').first();
    await connection.click();
    await page.waitForSelector(`[data-testid="table-${table}"]`, { timeout: 60_000 });
    const cpuBefore = cpuByName();
    await app.selectTable(table);
    // A function, not a string: the app's CSP forbids eval, which a string predicate needs.
    try {
      await page.waitForFunction(() => (globalThis as unknown as { __bench: PageProbe }).__bench.done !== undefined, undefined, {
        timeout: Number(process.env.BENCH_UI_TIMEOUT_MS ?? 900_000),
        polling: 250,
      });
    } catch (error) {
      // Say where the UI stood, so a stuck audit can be told apart from a slow one.
      const phase = await page
        .getByTestId('inspector')
        .getAttribute('data-audit-phase')
        .catch(() => null);
      const rows = await page
        .getByTestId('inspector-row-count')
        .textContent()
        .catch(() => null);
      const progress = await page
        .getByTestId('progress')
        .textContent()
        .catch(() => null);
      const seen = (await page.evaluate(READ_PROBE).catch(() => null)) as PageProbe | null;
      throw new Error(
        `${error instanceof Error ? error.message.split('\n')[0] : String(error)}; phase=${String(phase)} rows=${String(rows)} progress=${String(progress)} probe=${JSON.stringify(seen && { ...seen, longTasks: seen.longTasks.length })}`,
        { cause: error },
      );
    }
    const cpuMs = cpuSince(cpuBefore);
    const probe = (await page.evaluate(READ_PROBE)) as PageProbe;
    const complete = await page.getByTestId('inspector').getAttribute('data-audit-complete');
    if (complete !== 'true') throw new Error('the UI audit did not complete');
    const start = probe.start ?? 0;
    const done = probe.done ?? 0;
    const during = probe.longTasks.filter((t) => t.start >= start && t.start <= done).map((t) => t.duration);
    const heapBytes = await tabHeap(browser, page);
    const frameMs = (await page.evaluate(SCROLL_SCRIPT)) as number[];
    const after = ((await page.evaluate(READ_PROBE)) as PageProbe).longTasks;
    const scrollLongTasksMs = after.filter((t) => t.start > done).map((t) => t.duration);
    const rowsText = (await page.getByTestId('inspector-row-count').textContent())?.trim() ?? '';
    const rowCount = Number(/^(\d+)/.exec(rowsText)?.[1] ?? '0');
    const baselineFrameMs = await baselineScroll(browser, rowCount);
    return {
      startedMs: (probe.running ?? Number.NaN) - start,
      firstRowsMs: (probe.firstRows ?? Number.NaN) - start,
      completeMs: done - start,
      longTasksMs: during,
      frameMs,
      rowsText,
      scrollLongTasksMs,
      baselineFrameMs,
      heapBytes,
      cpuMs,
    };
  } finally {
    await context.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
