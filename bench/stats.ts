/** Pure statistics and formatting for the benchmark report (unit-tested; no timing here). */

/** The median of a non-empty list (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The p-th percentile (0–100) by linear interpolation between closest ranks, as spreadsheets
 * compute it (PERCENTILE.INC); NaN when empty.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100 || Number.isNaN(p)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const a = sorted[low] ?? Number.NaN;
  const b = sorted[high] ?? Number.NaN;
  return a + (b - a) * (rank - low);
}

/** `subject / baseline`, NaN when the baseline is not a positive number. */
export function ratio(subject: number, baseline: number): number {
  return baseline > 0 && Number.isFinite(baseline) ? subject / baseline : Number.NaN;
}

/** Items per second for `items` in `ms` milliseconds (NaN for a non-positive duration). */
export function itemsPerSecond(items: number, ms: number): number {
  return ms > 0 ? (items * 1000) / ms : Number.NaN;
}

/** A duration for humans: `850 ms`, `12.3 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 100_000 ? 2 : 1)} s`;
}

/** A byte count for humans in binary units: `512 B`, `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A rate for humans with thousands separators: `61,234/s`. */
export function formatRate(perSecond: number): string {
  return Number.isFinite(perSecond) ? `${Math.round(perSecond).toLocaleString('en-US')}/s` : '–';
}

/** A ratio for humans: `1.04×`. */
export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

/** Lays out rows as a plain-text table with left-aligned columns, for the terminal and Markdown-free logs. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same rows as a Markdown table (pipes in cells escaped). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (c: string): string => c.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The order of the measured variants in run `run` (0-based): rotated each run so that no variant
 * always goes first, cancelling slow drift of a shared machine (warm caches, other load).
 */
export function interleave<T>(variants: readonly T[], run: number): T[] {
  const n = variants.length;
  if (n === 0) return [];
  const shift = ((run % n) + n) % n;
  return [...variants.slice(shift), ...variants.slice(0, shift)];
}
