/**
 * Figures written by the reliability tests once their assertions have passed, one JSON file per
 * scenario under .cache/reliability/figures/ (gitignored; Playwright empties test-results/); `npm run reliability:report` renders
 * docs/reliability.md from them, so the document states only what a run measured.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the figures go. */
export const FIGURES_DIR = fileURLToPath(new URL('../../../.cache/reliability/figures/', import.meta.url));

/** Numbers and short facts, e.g. `{ runs: 50, writesLost: 0 }`. */
export type Figures = Readonly<Record<string, number | string>>;

/** One scenario's recorded figures. */
export interface FigureRecord {
  readonly id: string;
  readonly recordedAt: string;
  readonly figures: Figures;
}

/** Writes the figures of scenario `id` (call it after the assertions: a failed test records nothing). */
export async function recordFigures(id: string, figures: Figures): Promise<void> {
  await mkdir(FIGURES_DIR, { recursive: true });
  const record: FigureRecord = { id, recordedAt: new Date().toISOString(), figures };
  await writeFile(join(FIGURES_DIR, `${id}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

/** Every recorded scenario, by id. */
export async function readFigures(dir: string = FIGURES_DIR): Promise<Map<string, FigureRecord>> {
  const out = new Map<string, FigureRecord>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as FigureRecord;
    out.set(record.id, record);
  }
  return out;
}
