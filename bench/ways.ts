/**
 * The two ways every CLI and UI figure is measured: against DynamoDB Local directly, and through the
 * latency model of real DynamoDB (bench/latency-model.ts) in front of the same DynamoDB Local.
 */
import { AWS_MODEL, startLatencyModel, ZERO_MODEL, type LatencyModel } from './latency-model';
import type { BenchSummary } from './report';
import { formatMs, formatRatio, median, ratio } from './stats';

/** One endpoint the bench measures through. */
export interface Way {
  readonly key: 'direct' | 'model';
  readonly label: string;
  readonly endpoint: string;
}

/** Both ways, and the zero-latency model (the proxy's own cost); `stop` ends both models. */
export interface Ways {
  readonly ways: readonly Way[];
  readonly zeroEndpoint: string;
  readonly model: LatencyModel;
  stop(): Promise<void>;
}

/** Starts the models in front of `localEndpoint`, each having described `tables` once (as the model's copy). */
export async function startWays(localEndpoint: string, tables: readonly string[]): Promise<Ways> {
  const model = await startLatencyModel(localEndpoint, AWS_MODEL, { describe: tables });
  const zero = await startLatencyModel(localEndpoint, ZERO_MODEL);
  const f = AWS_MODEL;
  return {
    ways: [
      { key: 'direct', label: 'DynamoDB Local direct', endpoint: localEndpoint },
      {
        key: 'model',
        label: `through the latency model (${f.roundTripMs} ms round trip, DescribeTable ${f.describeTableMs} ms, ${f.bytesPerMs / 1000} MB/s link, ${f.rcuPerSecond} RCU/s per request)`,
        endpoint: model.endpoint,
      },
    ],
    zeroEndpoint: zero.endpoint,
    model,
    stop: async () => {
      await model.stop();
      await zero.stop();
    },
  };
}

/** The proxy's own cost: the whole raw-scan process through the zero-latency model against direct (paired runs). */
export function modelOverheadLine(direct: readonly number[], zero: readonly number[]): string {
  const paired = median(zero.map((z, i) => ratio(z, direct[i] ?? Number.NaN)));
  return `the latency model's own cost (raw-scan process through the proxy with nothing added vs direct, ${direct.length} paired runs): ${formatMs(median(zero))} vs ${formatMs(median(direct))}, ${formatRatio(paired)}`;
}

/** One line of UI figures measured one way. */
export function uiLine(label: string, ui: NonNullable<BenchSummary['ui']>): string {
  return (
    `${label}: UI, a first open of the table (fresh data folder): first rows ${formatMs(ui.firstRowsMs)} (target ≤ 500 ms: ${ui.firstRowsMs <= 500 ? 'met' : 'MISSED'}), ` +
    `complete ${formatMs(ui.completeMs)}, ${formatRatio(ui.completeVsRaw)} a whole raw-scan process (target ≤ 1.5×: ${ui.completeVsRaw <= 1.5 ? 'met' : 'MISSED'}), ` +
    `longest main-thread task ${formatMs(ui.maxLongTaskMs)} during the audit and ${formatMs(ui.maxScrollLongTaskMs)} during the scroll, scroll p95 ${formatMs(ui.scrollP95)} vs floor ${formatMs(ui.baselineP95)}`
  );
}
