/** Sampling a process tree's RSS and a folder's size while a benchmark child runs (Linux /proc; other OSes report NaN). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function children(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // The process ended between two reads.
  }
  return out;
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** RSS of `pid` and all its descendants, summed now. */
export function treeRss(pid: number): number {
  let total = 0;
  const queue = [pid];
  for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
    total += rssBytes(p);
    queue.push(...children(p));
  }
  return total;
}

/** Bytes of every file below `dir` now (0 when it does not exist). */
export function folderBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const s = statSync(path);
      total += s.isDirectory() ? folderBytes(path) : s.size;
    } catch {
      // Deleted while walking (DuckDB's spill files come and go).
    }
  }
  return total;
}

/** Samples a process tree's RSS and a folder's size every `everyMs` until stopped; returns the peaks. */
export function sampleTree(
  pid: number,
  dir: string | undefined,
  everyMs = 100,
): { stop: () => { peakRssBytes: number; peakDiskBytes: number } } {
  let peakRssBytes = 0;
  let peakDiskBytes = 0;
  const tick = (): void => {
    peakRssBytes = Math.max(peakRssBytes, treeRss(pid));
    if (dir) peakDiskBytes = Math.max(peakDiskBytes, folderBytes(dir));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakRssBytes: process.platform === 'linux' ? peakRssBytes : Number.NaN, peakDiskBytes };
    },
  };
}
