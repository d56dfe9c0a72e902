/**
 * The house's layers over the whole source graph: the table (layers.mjs) the lint rule `locksmith/layering`
 * checks per import, read again here file by file, plus what a per-file rule cannot see: no import cycles.
 * Imports are read with TypeScript's own pre-processor, so a type-only or re-export edge counts too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { layerOf, layeringBreach } from './layers.mjs';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..');

/** Source files (not tests): the graph the layers govern. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sources(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$|\.d\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

function graph(): Map<string, string[]> {
  const files = ['shared', 'electron', 'renderer', 'bench'].flatMap(sources);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, false);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => {
        const base = normalize(join(dirname(file), spec));
        return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => known.has(c));
      })
      .filter((t): t is string => t !== undefined);
    edges.set(file, targets);
  }
  return edges;
}

/** Strongly connected components with more than one file (Tarjan), each sorted. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('layering', () => {
  const edges = graph();

  it('every source file sits in a named layer', () => {
    expect([...edges.keys()].filter((f) => layerOf(f) === undefined)).toEqual([]);
  });

  it('each layer imports only the layers below it (type-only imports included)', () => {
    const breaches: string[] = [];
    for (const [file, targets] of edges) {
      for (const target of targets) {
        const why = layeringBreach(file, target);
        if (why !== undefined) breaches.push(`${file} → ${relative('.', target)} (${why})`);
      }
    }
    expect(breaches).toEqual([]);
  });

  it('no file takes part in an import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });
});
