/** What the CLI learns from an export before auditing it: a sample for detection, and the key schema when no table says it. */
import { PRESET_KEYS } from '../../../shared/conventions/presets';
import type { Item, KeySchema, KeyType, PresetName } from '../../../shared/model';
import { readDataFile, type OpenedExport } from './read-export';

/** The decompressed bytes a sample reads at most, over all its files: detection needs items, not megabytes. */
export const SAMPLE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Up to `n` items of a full export, from its first data files (files are partitioned by key hash: a
 * spread of the table), reading at most `maxBytes` decompressed; a damaged file is an ExportError naming it.
 */
export async function sampleExport(opened: OpenedExport, n = 2_000, maxBytes = SAMPLE_MAX_BYTES): Promise<Item[]> {
  const out: Item[] = [];
  const budget = { remaining: maxBytes };
  for (const file of opened.files) {
    if (out.length >= n || file.itemCount === 0 || budget.remaining <= 0) continue;
    for await (const line of readDataFile(file.path, { budget })) {
      const item = (line as { Item?: Record<string, Record<string, unknown>> }).Item;
      if (item) out.push(fromExportJson(item));
      if (out.length >= n) break;
    }
  }
  return out;
}

/** An export line's item as the SDK types it: B and BS from base64 (nested maps and lists too). */
export function fromExportJson(item: Record<string, Record<string, unknown>>): Item {
  const convert = (v: Record<string, unknown>): Record<string, unknown> => {
    if (typeof v.B === 'string') return { B: Buffer.from(v.B, 'base64') };
    if (Array.isArray(v.BS)) return { BS: v.BS.map((b) => Buffer.from(String(b), 'base64')) };
    if (v.M && typeof v.M === 'object')
      return { M: Object.fromEntries(Object.entries(v.M as Record<string, Record<string, unknown>>).map(([k, x]) => [k, convert(x)])) };
    if (Array.isArray(v.L)) return { L: (v.L as Record<string, unknown>[]).map(convert) };
    return v;
  };
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, convert(v)])) as unknown as Item;
}

function scalarType(value: Item[string] | undefined): KeyType | undefined {
  if (value === undefined) return undefined;
  if (value.S !== undefined) return 'S';
  if (value.N !== undefined) return 'N';
  if (value.B !== undefined) return 'B';
  return undefined;
}

/**
 * The key schema of an exported table when neither a table nor a convention file says it: the
 * first preset key schema (two-attribute ones first) that every sampled item carries, with the evidence.
 */
export function inferKeys(sample: readonly Item[], preset?: PresetName): { keys: KeySchema; evidence: string } | undefined {
  if (sample.length === 0) return undefined;
  const candidates = preset
    ? [PRESET_KEYS[preset]]
    : [...Object.values(PRESET_KEYS)].sort((a, b) => Number(b.range !== undefined) - Number(a.range !== undefined));
  for (const c of candidates) {
    const hashType = scalarType(sample[0]![c.hash.name]);
    const rangeType = c.range ? scalarType(sample[0]![c.range.name]) : undefined;
    if (hashType === undefined || (c.range && rangeType === undefined)) continue;
    const fits = sample.every(
      (item) => scalarType(item[c.hash.name]) === hashType && (!c.range || scalarType(item[c.range.name]) === rangeType),
    );
    if (!fits) continue;
    const keys: KeySchema =
      c.range && rangeType
        ? { hash: { name: c.hash.name, type: hashType }, range: { name: c.range.name, type: rangeType } }
        : { hash: { name: c.hash.name, type: hashType } };
    const names = c.range ? `${c.hash.name} + ${c.range.name}` : c.hash.name;
    return { keys, evidence: `key schema ${names} inferred: every one of ${sample.length} sampled items has it` };
  }
  return undefined;
}
