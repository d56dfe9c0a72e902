/**
 * `npm run bench`: audit speed, memory and UI responsiveness on a seeded DynamoDB Local, each
 * against baselines measured in the same run (see docs/benchmarks.md). Not a test: it asserts
 * only that the audit found what the generator planted, so the figures describe a correct audit.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
import type { AuditReport } from '../shared/audit/types';
import { createDynamoClient } from '../electron/services/dynamo/client';
import { startDynamoDbLocal } from '../electron/services/sandbox/dynamodb-local';
import { BENCH_USAGE, parseBenchArgs, type BenchArgs } from './args';
import { planDataset, type DatasetPlan } from './dataset';
import { benchLookups } from './lookup-bench';
import { describeMachine } from './machine';
import {
  docsSection,
  FIGURE_HEADER,
  figureRows,
  summarize,
  targets,
  upsertSection,
  type BenchFigures,
  type BenchSummary,
  type UiRun,
} from './report';
import { auditCli, auditInProcess, rawScan } from './scan-bench';
import { benchExport, summarizeExport } from './export-bench';
import { formatMs, interleave, median, textTable } from './stats';
import { measureProcessPair, processLines, rawScanProcess, summarizeProcesses } from './process-bench';
import { measureStartup, startupLine, summarizeStartup } from './startup-bench';
import { modelOverheadLine, startWays, uiLine, type Way, type Ways } from './ways';
import { createBenchTable, createPlainTable, loadBenchTable } from './table';
import { adminLine, benchAdmin } from './admin-bench';

const TABLE = 'bench_accounts';
const TINY_TABLE = 'bench_tiny';
const TINY_ITEMS = 1_000;
/** Half the bench table: the CLI's RSS on it and on the full table give the marginal growth per item. */
const HALF_TABLE = 'bench_half';
const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));
const EXPORT_RESULTS = fileURLToPath(new URL('./export-results.json', import.meta.url));

/** The live CLI audit's medians (the export audit's baseline when both read the same number of items). */
function summary0(scans: BenchFigures['scans']): { ms: number; rss: number } {
  return { ms: median(scans.cli), rss: median(scans.cliPeakRss) };
}
const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);

function checkReport(report: AuditReport, plan: DatasetPlan, what: string): void {
  const got = { scanned: report.scanned, accounts: report.accounts, locks: report.locks, summary: report.summary };
  const want = { scanned: plan.items, accounts: plan.accounts, locks: plan.locks, summary: plan.summary };
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(`${what} found ${JSON.stringify(got)}, the generator planted ${JSON.stringify(want)}`);
}

function emptyScans(): BenchFigures['scans'] {
  return {
    raw: [],
    single: [],
    audit: [],
    auditUi: [],
    cli: [],
    firstGroup: [],
    cliPeakRss: [],
    cliIdleRss: [],
    rawCpu: [],
    singleCpu: [],
    auditCpu: [],
    auditUiCpu: [],
    cliCpu: [],
    cliIdleCpu: [],
    cliHalfRss: [],
  };
}

type Variant = 'raw' | 'single' | 'audit' | 'auditUi' | 'cli';

async function measureScans(
  args: BenchArgs,
  client: DynamoDBClient,
  endpoint: string,
  plan: DatasetPlan,
  halfPlan: DatasetPlan,
  log: (line: string) => void,
): Promise<BenchFigures['scans']> {
  const out = {
    raw: [] as number[],
    single: [] as number[],
    audit: [] as number[],
    cli: [] as number[],
    firstGroup: [] as number[],
    cliPeakRss: [] as number[],
    cliIdleRss: [] as number[],
    rawCpu: [] as number[],
    singleCpu: [] as number[],
    auditCpu: [] as number[],
    auditUi: [] as number[],
    auditUiCpu: [] as number[],
    cliCpu: [] as number[],
    cliIdleCpu: [] as number[],
    streamedBytes: [] as number[],
    cliHalfRss: [] as number[],
  };
  // One unmeasured pass warms the JIT, the SDK and DynamoDB Local's page cache for everyone.
  await rawScan(client, TABLE, args.segments, convention);
  for (let run = 0; run < args.runs; run++) {
    for (const variant of interleave<Variant>(['raw', 'audit', 'single', 'auditUi', 'cli'], run)) {
      switch (variant) {
        case 'raw': {
          const s = await rawScan(client, TABLE, args.segments, convention);
          if (s.items !== plan.items) throw new Error(`raw scan read ${s.items} items, expected ${plan.items}`);
          out.raw.push(s.ms);
          out.rawCpu.push(s.cpuMs);
          break;
        }
        case 'single': {
          const s = await rawScan(client, TABLE, 1, convention);
          out.single.push(s.ms);
          out.singleCpu.push(s.cpuMs);
          break;
        }
        case 'audit': {
          const s = await auditInProcess(client, TABLE, args.segments, convention, false);
          checkReport(s.report, plan, 'the in-process audit');
          out.audit.push(s.ms);
          out.auditCpu.push(s.cpuMs);
          break;
        }
        case 'auditUi': {
          const s = await auditInProcess(client, TABLE, args.segments, convention, true);
          checkReport(s.report, plan, 'the in-process audit with deltas');
          out.auditUi.push(s.ms);
          out.auditUiCpu.push(s.cpuMs);
          out.firstGroup.push(s.firstGroupMs ?? Number.NaN);
          out.streamedBytes.push(s.streamedBytes ?? Number.NaN);
          break;
        }
        case 'cli': {
          const s = await auditCli(endpoint, TABLE, args.segments);
          checkReport(s.report, plan, 'the CLI audit');
          out.cli.push(s.ms);
          out.cliPeakRss.push(s.peakRssBytes ?? Number.NaN);
          out.cliCpu.push(s.cpuMs);
          const idle = await auditCli(endpoint, TINY_TABLE, args.segments);
          out.cliIdleRss.push(idle.peakRssBytes ?? Number.NaN);
          out.cliIdleCpu.push(idle.cpuMs);
          const half = await auditCli(endpoint, HALF_TABLE, args.segments);
          checkReport(half.report, halfPlan, 'the CLI audit of the half table');
          out.cliHalfRss.push(half.peakRssBytes ?? Number.NaN);
          break;
        }
      }
      log(`  run ${run + 1}/${args.runs} ${variant}: ${formatMs(out[variant].at(-1) ?? Number.NaN)}`);
    }
  }
  return out;
}

/**
 * UI runs, each a user's first open of the table, each right after a whole raw-scan process on the
 * same endpoint: the UI's audit is read against that process (what a script the user could run instead takes).
 */
async function measureUi(args: BenchArgs, way: Way, log: (line: string) => void): Promise<UiRun[]> {
  const { launchChromium, uiRun } = await import('./ui-bench');
  const browser = await launchChromium();
  const runs: UiRun[] = [];
  try {
    for (let run = 0; run < args.runs; run++) {
      const raw = await rawScanProcess(way.endpoint, TABLE, args.segments, convention);
      const r = { ...(await uiRun(browser, way.endpoint, TABLE)), rawMs: raw.ms };
      runs.push(r);
      log(
        `  ${way.label}, ui run ${run + 1}/${args.runs}: raw-scan process ${formatMs(raw.ms)}; audit started ${formatMs(r.startedMs)}, first rows ${formatMs(r.firstRowsMs)}, complete ${formatMs(r.completeMs)}, ${r.longTasksMs.length} long tasks (max ${formatMs(Math.max(0, ...r.longTasksMs))}), ` +
          `${r.frameMs.length} frames, scroll long tasks max ${formatMs(Math.max(0, ...r.scrollLongTasksMs))}, heap ${Math.round((r.heapBytes.page + r.heapBytes.workers) / 1048576)} MiB`,
      );
    }
  } finally {
    await browser.close();
  }
  return runs;
}

/** `--help` start-up once, then the whole-process audit pair (the CLI vs node + SDK scanning) each way, each verified. */
async function measureProcesses(
  args: BenchArgs,
  ways: readonly Way[],
  zeroEndpoint: string,
  plan: DatasetPlan,
  log: (line: string) => void,
) {
  const startup = summarizeStartup(await measureStartup(args.startupRuns, log));
  const lines = [startupLine(startup)];
  const overhead = { direct: [] as number[], zero: [] as number[] };
  const direct = ways[0]!;
  for (let run = 0; run < args.runs; run++) {
    for (const which of interleave<'direct' | 'zero'>(['direct', 'zero'], run)) {
      const s = await rawScanProcess(which === 'direct' ? direct.endpoint : zeroEndpoint, TABLE, args.segments, convention);
      overhead[which].push(s.ms);
    }
  }
  lines.push(modelOverheadLine(overhead.direct, overhead.zero));
  log(`  ${lines.at(-1) ?? ''}`);
  const byWay: Record<string, { pair: Awaited<ReturnType<typeof measureProcessPair>>; summary: Record<string, number> }> = {};
  for (const way of ways) {
    log(`whole processes, ${way.label}…`);
    const pair = await measureProcessPair(
      {
        endpoint: way.endpoint,
        table: TABLE,
        segments: args.segments,
        convention,
        items: plan.items,
        runs: args.runs,
        tiny: { table: TINY_TABLE, items: planDataset(TINY_ITEMS).items },
      },
      (report) => checkReport(report, plan, 'the CLI audit'),
      log,
    );
    const summary = summarizeProcesses(pair);
    byWay[way.key] = { pair, summary };
    lines.push(...processLines(summary, way.label));
    if (args.admin) {
      log(`dynamodb-admin, ${way.label} (paging every UNIQ# item through its API)…`);
      const admin = await benchAdmin(way.endpoint, TABLE, 'UNIQ#', plan.locks);
      const problems = Object.values(plan.summary).reduce((a, b) => a + b, 0);
      lines.push(`${way.label}: ${adminLine(admin, summary.cliColdProcessMs, problems)}`);
    }
  }
  return { startup, overhead, byWay, lines };
}

/** `--cli-only`: whole processes only, on the bench table; results.json written, docs untouched. */
async function cliOnly(
  args: BenchArgs,
  client: DynamoDBClient,
  ways: readonly Way[],
  zeroEndpoint: string,
  plan: DatasetPlan,
  loadMs: number,
  machine: Awaited<ReturnType<typeof describeMachine>>,
  log: (line: string) => void,
): Promise<void> {
  log(`loaded ${plan.items.toLocaleString('en-US')} items in ${formatMs(loadMs)}`);
  // One unmeasured pass warms DynamoDB Local's page cache for both processes.
  await rawScan(client, TABLE, args.segments, convention);
  const processes = await measureProcesses(args, ways, zeroEndpoint, plan, log);
  const finished = { ...machine, loadAverageEnd: loadavg() };
  writeFileSync(RESULTS, `${JSON.stringify({ machine: finished, args, plan, processes }, null, 2)}\n`);
  const load = (l: readonly number[]): string => l.map((x) => x.toFixed(2)).join(' / ');
  const summary = { startup: processes.startup, ...Object.fromEntries(Object.entries(processes.byWay).map(([k, v]) => [k, v.summary])) };
  if (args.json) process.stdout.write(`${JSON.stringify({ machine: finished, args, summary })}\n`);
  else
    process.stdout.write(
      `${processes.lines.join('\n')}\nload average ${load(machine.loadAverageStart)} at start, ${load(finished.loadAverageEnd)} at end\nwrote bench/results.json (whole processes only; docs/benchmarks.md untouched)\n`,
    );
}

async function main(): Promise<void> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${BENCH_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const machine = await describeMachine();
  if (args.exportOnly) {
    log(`bench: export audit of ${args.exportItems.toLocaleString('en-US')} items, ${args.runs} runs (no live baseline in --export-only)`);
    const exportSummary = summarizeExport(await benchExport(args.exportItems, args.runs, log));
    writeFileSync(
      EXPORT_RESULTS,
      `${JSON.stringify({ machine: { ...machine, loadAverageEnd: loadavg() }, args, summary: exportSummary }, null, 2)}\n`,
    );
    process.stdout.write(`${JSON.stringify(exportSummary, null, 2)}\nwrote bench/export-results.json\n`);
    return;
  }
  if (!args.skipUi && !args.cliOnly && !existsSync(fileURLToPath(new URL('../dist/renderer/index.html', import.meta.url))))
    throw new Error('the UI benchmark needs the built renderer: run `npx vite build` (or pass --skip-ui)');
  log(
    `bench: ${args.items.toLocaleString('en-US')} items, ${args.runs} runs, ${args.segments} segments, heap ${args.heap}; load average ${machine.loadAverageStart.map((l) => l.toFixed(2)).join(' ')}`,
  );

  const started = await startDynamoDbLocal({ heap: args.heap });
  if (!started.ok) throw new Error(`DynamoDB Local: ${started.error.message}`);
  const local = started.value;
  const client = createDynamoClient({ label: 'bench', endpoint: local.endpoint, region: 'us-east-1' });
  let models: Ways | undefined;
  try {
    const plan = planDataset(args.items);
    await createBenchTable(client, TABLE);
    const loadStarted = performance.now();
    let nextLog = 100_000;
    await loadBenchTable(client, TABLE, args.items, 8, (written) => {
      if (written >= nextLog) {
        log(`  loaded ${written.toLocaleString('en-US')} items`);
        nextLog += 100_000;
      }
    });
    const loadMs = performance.now() - loadStarted;
    await createPlainTable(client, TINY_TABLE);
    await loadBenchTable(client, TINY_TABLE, TINY_ITEMS);
    if (args.cliOnly) {
      models = await startWays(local.endpoint, [TABLE, TINY_TABLE]);
      await cliOnly(args, client, models.ways, models.zeroEndpoint, plan, loadMs, machine, log);
      return;
    }
    const halfPlan = planDataset(Math.floor(args.items / 2));
    log(`loaded ${plan.items.toLocaleString('en-US')} items in ${formatMs(loadMs)}`);

    if (args.uiOnly) {
      models = await startWays(local.endpoint, [TABLE, TINY_TABLE]);
      await rawScan(client, TABLE, args.segments, convention); // warm-up, unmeasured, as in a full run
      const byWay: Record<string, { ui: UiRun[]; summary: BenchSummary['ui'] }> = {};
      for (const way of models.ways) {
        log(`UI, ${way.label}…`);
        const ui = await measureUi(args, way, log);
        byWay[way.key] = {
          ui,
          summary: summarize({ items: plan.items, segments: args.segments, runs: args.runs, loadMs, scans: emptyScans(), ui }).ui,
        };
      }
      const machineEnd = { ...machine, loadAverageEnd: loadavg() };
      writeFileSync(RESULTS, `${JSON.stringify({ machine: machineEnd, args, ui: byWay }, null, 2)}\n`);
      process.stdout.write(
        `${models.ways
          .flatMap((way) => {
            const summary = byWay[way.key]?.summary;
            return summary ? [uiLine(way.label, summary)] : [];
          })
          .join('\n')}\n`,
      );
      process.stdout.write(
        `load average ${machine.loadAverageStart.map((l) => l.toFixed(2)).join(' / ')} at start, ${machineEnd.loadAverageEnd.map((l) => l.toFixed(2)).join(' / ')} at end\nwrote bench/results.json (UI only; docs/benchmarks.md untouched)\n`,
      );
      return;
    }
    await createPlainTable(client, HALF_TABLE);
    await loadBenchTable(client, HALF_TABLE, Math.floor(args.items / 2));
    log(`loaded the half table (${halfPlan.items.toLocaleString('en-US')} items)`);
    // Every table the app's overview surveys is described once at start: later DescribeTables come from the model's copy.
    models = await startWays(local.endpoint, [TABLE, TINY_TABLE, HALF_TABLE]);
    const scans = await measureScans(args, client, local.endpoint, plan, halfPlan, log);
    log('whole processes…');
    const processes = await measureProcesses(args, models.ways, models.zeroEndpoint, plan, log);
    log('lookups…');
    const lookups = await benchLookups(
      client,
      TABLE,
      args.items,
      convention,
      args.lookups,
      Math.max(3, Math.min(5, Math.round(1_000_000 / args.items))),
      args.segments,
    );
    let ui: UiRun[] | undefined;
    let uiModel: UiRun[] | undefined;
    let uiError: string | undefined;
    if (!args.skipUi) {
      const [direct, model] = models.ways;
      try {
        log(`UI, ${direct!.label}…`);
        ui = await measureUi(args, direct!, log);
        log(`UI, ${model!.label}…`);
        uiModel = await measureUi(args, model!, log);
      } catch (error) {
        // The scan figures stand on their own: report them with the UI failure rather than lose them.
        uiError = error instanceof Error ? error.message : String(error);
        log(`UI benchmark failed: ${uiError}`);
      }
    }
    const uiLines: string[] = [];
    for (const [way, runs] of [
      [models.ways[0]!, ui],
      [models.ways[1]!, uiModel],
    ] as const) {
      const s = runs && summarize({ items: plan.items, segments: args.segments, runs: args.runs, loadMs, scans, ui: runs }).ui;
      if (s) uiLines.push(uiLine(way.label, s));
    }

    let exportSummary: Record<string, string | number> | undefined;
    if (args.exportItems > 0) {
      log('export audit…');
      const cli = summary0(scans);
      exportSummary = summarizeExport(await benchExport(args.exportItems, args.runs, log), {
        ms: cli.ms,
        peakRssBytes: cli.rss,
        items: plan.items,
      });
      writeFileSync(
        EXPORT_RESULTS,
        `${JSON.stringify({ machine: { ...machine, loadAverageEnd: loadavg() }, args, summary: exportSummary }, null, 2)}\n`,
      );
    }
    const figures: BenchFigures = {
      items: plan.items,
      halfItems: halfPlan.items,
      segments: args.segments,
      runs: args.runs,
      loadMs,
      scans,
      lookups,
      ...(ui ? { ui } : {}),
    };
    const summary = summarize(figures);
    const finished = { ...machine, loadAverageEnd: loadavg() };
    const verdicts = targets(plan.items, summary);
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ machine: finished, args, plan, figures, summary, targets: verdicts, processes, ...(uiModel ? { uiModel } : {}), ...(uiError ? { uiError } : {}) }, null, 2)}\n`,
    );
    const doc = existsSync(DOCS) ? readFileSync(DOCS, 'utf8') : '# Benchmarks\n';
    const section = docsSection(finished, figures, summary).replace(
      `<!-- /bench:${plan.items} -->`,
      `\nWhole processes, started cold (node + SDK only for the raw one), and the UI, both ways:\n\n${[...processes.lines, ...uiLines].map((l) => `- ${l}`).join('\n')}\n<!-- /bench:${plan.items} -->`,
    );
    writeFileSync(DOCS, upsertSection(doc, plan.items, section));
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ machine: finished, args, plan, summary, targets: verdicts })}\n`);
    } else {
      process.stdout.write(`\n${textTable([...FIGURE_HEADER], figureRows(plan.items, summary))}\n\n`);
      process.stdout.write(
        `${textTable(
          ['target', 'this run', 'verdict'],
          verdicts.map((t) => [t.target, t.value, t.met === undefined ? '–' : t.met ? 'met' : 'MISSED']),
        )}\n`,
      );
      process.stdout.write(`\n${[...processes.lines, ...uiLines].join('\n')}\n`);
      if (exportSummary) process.stdout.write(`\nexport audit:\n${JSON.stringify(exportSummary, null, 2)}\n`);
      process.stdout.write(`\nwrote bench/results.json${exportSummary ? ', bench/export-results.json' : ''} and docs/benchmarks.md\n`);
    }
  } finally {
    client.destroy();
    await models?.stop();
    await local.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
