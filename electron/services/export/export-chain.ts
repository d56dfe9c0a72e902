/**
 * Whether a full export and its incrementals form one unbroken history of one table, checked from
 * their manifests before any data is read. The audit applies the incrementals in the order given
 * (the last write of a key wins), so swapped incrementals would roll a newer state back, a missing
 * one would leave its window's changes out, and another table's would mix in foreign items — each
 * a complete-looking, wrong report. Every such chain is refused with the reason.
 */
import { tableFromArn } from './layout';
import { ExportError, type OpenedExport } from './read-export';

/** The manifest fields an incremental export states its window with (manifest-summary.json). */
interface WindowFields {
  readonly exportTime?: unknown;
  readonly exportFromTime?: unknown;
  readonly exportToTime?: unknown;
}

function time(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The table an export is of: its manifest's tableArn, else the part of the exportArn before `/export/`. */
function tableArnOf(e: OpenedExport): string {
  const stated = (e.summary as { tableArn?: unknown }).tableArn;
  return typeof stated === 'string' && stated !== '' ? stated : e.summary.exportArn.replace(/\/export\/.*$/, '');
}

/** Throws an ExportError unless `exports` is one full export followed by incrementals of the same table, in time order, without gaps. */
export function checkExportChain(exports: readonly OpenedExport[]): void {
  const [full, ...incrementals] = exports;
  if (!full || full.type !== 'FULL_EXPORT')
    throw new ExportError('the first --export must be a full export (incrementals are applied on top of one)');
  const table = tableArnOf(full);
  const fullTime = time(full.summary.exportTime);
  if (incrementals.length > 0 && fullTime === undefined)
    throw new ExportError(`the full export's manifest states no exportTime: incrementals cannot be placed after it`, full.dir);
  const windows = incrementals.map((inc) => {
    if (inc.type !== 'INCREMENTAL_EXPORT')
      throw new ExportError(
        `--export ${inc.dir} is a full export: after the first, each --export must be an incremental, in time order`,
        inc.dir,
      );
    const other = tableArnOf(inc);
    if (other !== table)
      throw new ExportError(
        `--export ${inc.dir} is of table ${tableFromArn(other) ?? other}, the full export of ${tableFromArn(table) ?? table}: every incremental must come from the full export's table`,
        inc.dir,
      );
    const fields = inc.summary as WindowFields;
    const from = time(fields.exportFromTime);
    const to = time(fields.exportToTime) ?? time(fields.exportTime);
    if (from === undefined || to === undefined)
      throw new ExportError(
        `the incremental export ${inc.dir} states no exportFromTime/exportToTime in its manifest: whether changes are missing between exports cannot be checked`,
        inc.dir,
      );
    return { inc, from, to, text: `the incremental ${inc.dir} (${iso(from)} → ${iso(to)})` };
  });
  // Order first (a swapped pair also looks like a gap), then gaps.
  const before = [{ to: fullTime!, text: `the full export (${full.summary.exportTime})` }, ...windows];
  windows.forEach((w, i) => {
    if (w.to <= before[i]!.to)
      throw new ExportError(
        `--export ${w.inc.dir} ends at ${iso(w.to)}, before ${before[i]!.text} does: give the incrementals in time order, oldest first`,
        w.inc.dir,
      );
  });
  windows.forEach((w, i) => {
    const previous = before[i]!;
    if (w.from > previous.to)
      throw new ExportError(
        `--export ${w.inc.dir} starts at ${iso(w.from)}, after ${previous.text} ends at ${iso(previous.to)}: the changes in between are in no export given (an incremental is missing)`,
        w.inc.dir,
      );
  });
}
