/**
 * `npx tsx bench/profile-ui.ts <endpoint> [table] [--measure [--runs=N]]`: opens the UI (browser mode) on a
 * running endpoint (see bench/hold-table.ts), records a CPU profile of the audit and of a scroll
 * over the whole list, and prints the functions with the most self time in each. Build the renderer
 * with `npx vite build --minify false` first for readable names. With `--measure`, runs the UI
 * benchmark's own probe instead (no profiler attached), each run right after a raw parallel scan,
 * and prints its figures with the ratio.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../e2e/pages/app-page';
import { startServe } from '../e2e/support/server';
import { createDynamoClient } from '../electron/services/dynamo/client';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
import { rawScan } from './scan-bench';
import { percentile as percentileOf } from './stats';
import type { Browser } from '@playwright/test';
import { launchChromium, scrollScript, uiRun } from './ui-bench';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function topSelf(profile: Profile, n = 25): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${name}`);
}

/**
 * The profile's stretches of back-to-back busy samples (anything but `(idle)`) longer than `minMs`, each
 * with its top self time: a sampled stand-in for the long tasks a trace would show, where a trace of a
 * whole 1M audit is too large to keep.
 */
function busyStretches(profile: Profile, minMs = 50, n = 8): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const out: { ms: number; at: number; top: string }[] = [];
  let start = -1;
  let elapsed = 0;
  let startedAt = 0;
  const close = (end: number): void => {
    if (start < 0) return;
    let ms = 0;
    const self = new Map<string, number>();
    for (let i = start; i < end; i++) {
      const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      ms += delta;
      const f = byId.get(profile.samples[i]!)?.callFrame;
      const name = f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}` : '?';
      self.set(name, (self.get(name) ?? 0) + delta);
    }
    if (ms > minMs) {
      const top = [...self.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([name, t]) => `${name} ${t.toFixed(0)}`);
      out.push({ ms, at: startedAt, top: top.join(' | ') });
    }
    start = -1;
  };
  profile.samples.forEach((id, i) => {
    elapsed += (profile.timeDeltas[i] ?? 0) / 1000;
    const idle = byId.get(id)?.callFrame.functionName === '(idle)';
    if (idle) close(i);
    else if (start < 0) {
      start = i;
      startedAt = elapsed;
    }
  });
  close(profile.samples.length);
  return out
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((s) => `${s.ms.toFixed(0)} ms busy at +${(s.at / 1000).toFixed(1)} s: ${s.top}`);
}

/** 100 scroll steps over the whole inspector list (the benchmark's script, fewer steps). */
const SCROLL_100 = scrollScript(100);

const measure = process.argv.includes('--measure');
const trace = process.argv.includes('--trace');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { functionName?: string; url?: string; type?: string } };
}

/** The long main-thread tasks of a trace and, for each, the events inside it that took longest. */
function longTaskBreakdown(events: readonly TraceEvent[]): string[] {
  const complete = events.filter((e) => e.ph === 'X' && typeof e.dur === 'number');
  // The page's main thread only (a worker's or the browser's own long tasks do not block the page).
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = complete.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000 && main.has(`${e.pid}:${e.tid}`));
  // When each task ran, from the trace's first main-thread task (the click's, for the audit's trace).
  const t0 = Math.min(...complete.filter((e) => e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`)).map((e) => e.ts));
  return tasks
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 12)
    .map((task) => {
      const inner = complete.filter(
        (e) =>
          e.tid === task.tid && e.pid === task.pid && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0),
      );
      const byName = new Map<string, number>();
      for (const e of inner) {
        const label =
          e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire'
            ? `${e.name}(${e.args?.data?.functionName ?? e.args?.data?.type ?? ''})`
            : e.name;
        byName.set(label, Math.max(byName.get(label) ?? 0, (e.dur ?? 0) / 1000));
      }
      const top = [...byName.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([n, ms]) => `${n} ${ms.toFixed(0)}`);
      return `${((task.dur ?? 0) / 1000).toFixed(0)} ms at +${((task.ts - t0) / 1e6).toFixed(1)} s: ${top.join(' | ')}`;
    });
}
/**
 * Starts the CPU profiler in the browser's first worker (the row store's), through the browser's
 * CDP session: Playwright gives no CDP session for a worker. Returns how to stop it.
 */
async function profileWorker(browser: Browser): Promise<{ stop: () => Promise<Profile> }> {
  const cdp = await browser.newBrowserCDPSession();
  let targetId: string | undefined;
  for (let tries = 0; targetId === undefined && tries < 500; tries++) {
    targetId = (await cdp.send('Target.getTargets')).targetInfos.find((t) => t.type === 'worker')?.targetId;
    if (targetId === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (targetId === undefined) throw new Error('no worker appeared');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  let next = 0;
  const call = async (method: string, params: object = {}): Promise<unknown> => {
    const id = (next += 1);
    const answer = new Promise<unknown>((resolve) => {
      cdp.on('Target.receivedMessageFromTarget', (event) => {
        const message = JSON.parse(event.message) as { id?: number; result?: unknown };
        if (event.sessionId === sessionId && message.id === id) resolve(message.result);
      });
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return answer;
  };
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 500 });
  await call('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await call('Profiler.stop')) as { profile: Profile };
      await cdp.detach();
      return profile;
    },
  };
}

const [endpoint, table = 'bench_accounts'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (measure && endpoint) {
  // Each UI run right after a raw parallel scan of the same table, as `npm run bench` reads it.
  const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 1);
  const client = createDynamoClient({ label: 'profile', endpoint, region: 'us-east-1' });
  const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
  const browser = await launchChromium();
  try {
    for (let run = 0; run < runs; run++) {
      const raw = await rawScan(client, table, 4, convention);
      const r = await uiRun(browser, endpoint, table);
      const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
      const frames = sorted(r.frameMs);
      const at = (p: number): string =>
        (frames[Math.min(frames.length - 1, Math.floor((frames.length * p) / 100))] ?? Number.NaN).toFixed(1);
      process.stdout.write(
        `raw ${raw.ms.toFixed(0)} ms; started ${r.startedMs.toFixed(0)} ms, first rows ${r.firstRowsMs.toFixed(0)} ms, complete ${r.completeMs.toFixed(0)} ms (${(r.completeMs / raw.ms).toFixed(2)}× raw), ${r.longTasksMs.length} long tasks, largest ${sorted(r.longTasksMs).slice(-8).join(', ')} ms; ` +
          `scroll ${frames.length} frames p50 ${at(50)} p95 ${at(95)} ms, ${r.scrollLongTasksMs.length} scroll long tasks, largest ${sorted(r.scrollLongTasksMs).slice(-5).join(', ')}; ${r.rowsText}; ` +
          `baseline scroll p50 ${percentileOf(r.baselineFrameMs, 50).toFixed(1)} p95 ${percentileOf(r.baselineFrameMs, 95).toFixed(1)} ms; heap ${((r.heapBytes.page + r.heapBytes.workers) / 1048576).toFixed(0)} MiB; CPU during the audit ${Object.entries(
            r.cpuMs,
          )
            .map(([n, ms]) => `${n} ${ms.toFixed(0)}`)
            .join(', ')} ms\n`,
      );
    }
  } finally {
    await browser.close();
    client.destroy();
  }
  process.exit(0);
}
if (!endpoint) throw new Error('usage: profile-ui.ts <endpoint> [table]');
const network = process.argv.includes('--network');
if (network && endpoint) {
  const dir = mkdtempSync(join(tmpdir(), 'locksmith-profile-'));
  // `--serve-profile=<dir>`: a CPU profile of `serve` over the first open, written there when it stops.
  const profileDir = /^--serve-profile=(.+)$/.exec(process.argv.find((a) => a.startsWith('--serve-profile=')) ?? '')?.[1];
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=500'] : [];
  const serve = await startServe({ dataDir: dir, args: ['--endpoint', endpoint], nodeArgs });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const app = new AppPage(page);
    await app.open(serve.url);
    await page.locator('[data-testid^="connection-endpoint"]').first().click();
    await page.waitForSelector(`[data-testid="table-${table}"]`, { timeout: 60_000 });
    const t0 = performance.now();
    // The monotonic clock at t0, to line this log up with a CPU profile of `serve` (`NODE_OPTIONS=--cpu-prof`; its startTime is on the same clock).
    process.stdout.write(`t0 at ${(process.hrtime.bigint() / 1000n).toString()} µs (monotonic)\n`);
    const at = (): string => `${(performance.now() - t0).toFixed(0)} ms`;
    page.on('request', (r) =>
      process.stdout.write(`${at()} → ${r.method()} ${new URL(r.url()).pathname} ${(r.postData() ?? '').slice(0, 80)}\n`),
    );
    page.on('requestfinished', (r) => process.stdout.write(`${at()} ✓ ${new URL(r.url()).pathname}\n`));
    process.stdout.write(`${at()} click\n`);
    await app.selectTable(table);
    await page.waitForSelector('[data-testid="inspector-row"]', { timeout: 60_000 });
    process.stdout.write(`${at()} first row\n`);
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
const dataDir = mkdtempSync(join(tmpdir(), 'locksmith-profile-'));
const server = await startServe({ dataDir, args: ['--endpoint', endpoint] });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  const app = new AppPage(page);
  await app.open(server.url);
  await page.locator('[data-testid^="connection-endpoint"]').first().click();
  await page.waitForSelector(`[data-testid="table-${table}"]`, { timeout: 60_000 });
  if (trace) {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink'] });
    await app.selectTable(table);
    await page.waitForSelector('[data-testid="inspector"][data-audit-phase="done"]', { timeout: 600_000 });
    const buffer = await browser.stopTracing();
    writeFileSync(join(tmpdir(), 'locksmith-audit-trace.json'), buffer);
    const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
    process.stdout.write(`long tasks during the audit (largest inner events, ms):\n${longTaskBreakdown(parsed.traceEvents).join('\n')}\n`);
    // Then the scroll: where the main thread's time goes, summed by event name.
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'] });
    await page.evaluate(SCROLL_100);
    const scrollTrace = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const totals = new Map<string, { ms: number; n: number }>();
    for (const e of scrollTrace) {
      if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
      const t = totals.get(e.name) ?? { ms: 0, n: 0 };
      t.ms += e.dur / 1000;
      t.n += 1;
      totals.set(e.name, t);
    }
    const top = [...totals.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25);
    process.stdout.write(`long tasks during the scroll (largest inner events, ms):\n${longTaskBreakdown(scrollTrace).join('\n')}\n`);
    process.stdout.write(
      `scroll (100 steps), total ms by event (nested events count in their parents too):\n${top.map(([n, t]) => `${t.ms.toFixed(0).padStart(7)} ms ${String(t.n).padStart(6)}×  ${n}`).join('\n')}\n`,
    );
  } else {
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await app.selectTable(table);
    // The row store's worker starts with the audit: profiled from the moment it appears.
    const worker = await profileWorker(browser);
    await page.waitForSelector('[data-testid="inspector"][data-audit-phase="done"]', { timeout: 600_000 });
    const audit = (await cdp.send('Profiler.stop')).profile as unknown as Profile;
    process.stdout.write(`audit took ${Date.now() - t0} ms; page's top self time:\n${topSelf(audit).join('\n')}\n\n`);
    process.stdout.write(`the page's busy stretches over 50 ms during the audit:\n${busyStretches(audit).join('\n')}\n\n`);
    const workerProfile = await worker.stop();
    process.stdout.write(`the row store's worker, top self time:\n${topSelf(workerProfile).join('\n')}\n\n`);
    writeFileSync(join(tmpdir(), 'locksmith-audit-worker.cpuprofile'), JSON.stringify(workerProfile));
    writeFileSync(join(tmpdir(), 'locksmith-audit.cpuprofile'), JSON.stringify(audit));
    await cdp.send('Profiler.start');
    const frames = (await page.evaluate(SCROLL_100)) as number[];
    const scroll = (await cdp.send('Profiler.stop')).profile as unknown as Profile;
    frames.sort((a, b) => a - b);
    process.stdout.write(
      `scroll: ${frames.length} frames, p50 ${frames[Math.floor(frames.length / 2)]?.toFixed(1)} ms, p95 ${frames[Math.floor(frames.length * 0.95)]?.toFixed(1)} ms; top self time:\n${topSelf(scroll).join('\n')}\n`,
    );
    process.stdout.write(`the page's busy stretches over 50 ms during the scroll:\n${busyStretches(scroll).join('\n')}\n`);
    writeFileSync(join(tmpdir(), 'locksmith-scroll.cpuprofile'), JSON.stringify(scroll));
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
