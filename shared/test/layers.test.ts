/**
 * The house's shape, checked from the import graph of shared/src: each floor (and each room of the
 * lab) imports only the ones below it, and no files import each other round a circle. The map is
 * ../shared/ARCHITECTURE.md and the README's "Layout".
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** What each part of shared/src may import (besides itself). Barrels (index.ts) may import their own parts. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  engine: [],
  agents: ['engine'],
  'lab/stats': [],
  'lab/game': ['engine', 'agents', 'lab/stats'],
  'lab/papers': ['lab/stats'],
  'lab/tune': ['engine', 'agents', 'lab/stats'],
  'lab/plan': ['engine', 'agents', 'lab/stats', 'lab/game', 'lab/papers', 'lab/tune'],
  'lab/results': ['engine', 'agents', 'lab/stats', 'lab/game', 'lab/papers', 'lab/plan'],
  'lab/threads': ['engine', 'agents', 'lab/stats', 'lab/game', 'lab/papers', 'lab/plan', 'lab/results'],
  'lab/play': ['engine', 'agents', 'lab/game', 'lab/threads'],
  store: ['engine', 'agents', 'lab'],
  http: [],
  cli: ['engine', 'agents', 'lab', 'store'],
};

/** The part of shared/src a file belongs to: its lab room, else its top folder (or '' for a top-level file). */
export function partOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '';
  if (parts[0] === 'lab' && parts.length > 2) return `lab/${parts[1]}`;
  return parts[0];
}

/** Whether `from` may import `to` (both parts); a barrel may import its own parts. */
function allowed(fromFile: string, to: string): boolean {
  const from = partOf(fromFile);
  if (from === '' || from === to) return true;
  if (path.basename(fromFile) === 'index.ts' && to.startsWith(`${from}/`)) return true;
  const may = MAY_IMPORT[from];
  if (!may) return false;
  return may.some((p) => to === p || to.startsWith(`${p}/`));
}

/** Imports that point up or sideways: `from → to` for each edge a part may not take. */
export function upwardArrows(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const bad: string[] = [];
  for (const [from, tos] of edges) for (const to of tos) if (!allowed(from, partOf(to))) bad.push(`${from} → ${to}`);
  return bad;
}

/** The circles of the graph (strongly connected components of more than one file, or a file importing itself). */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
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
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out;
}

function sourceFiles(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return sourceFiles(dir, r);
    return e.name.endsWith('.ts') ? [r] : [];
  });
}

/** Every relative import of shared/src's files, as paths relative to shared/src (.ts), type-only imports too. */
function importGraph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const specs = [...text.matchAll(/(?:from|import\(|new URL\()\s*'(\.{1,2}\/[^']+\.js(?:on)?)'/g)].map((m) => m[1]);
    edges.set(
      file,
      specs.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, '.ts')),
    );
  }
  return edges;
}

describe('the layers of shared/src', () => {
  const graph = importGraph();

  it('reads the graph: the lab is in rooms and the engine imports nothing of the others', () => {
    const labParts = new Set([...graph.keys()].filter((f) => f.startsWith('lab/')).map(partOf));
    expect([...labParts].sort()).toEqual(['lab', 'lab/game', 'lab/papers', 'lab/plan', 'lab/play', 'lab/results', 'lab/stats', 'lab/threads', 'lab/tune']);
    // Only the lab's barrel sits outside its rooms.
    expect([...graph.keys()].filter((f) => partOf(f) === 'lab')).toEqual(['lab/index.ts']);
    expect(graph.get('lab/threads/game-pool.ts')).toContain('lab/threads/game-thread.ts');
  });

  it('no part imports one above it or beside it', () => {
    expect(upwardArrows(graph)).toEqual([]);
  });

  it('no files import each other round a circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('the checks find an upward arrow and a circle when there is one', () => {
    const bad = new Map<string, string[]>([
      ['engine/rules.ts', ['agents/random.ts']],
      ['lab/stats/sprt.ts', ['lab/plan/sweep.ts']],
      ['lab/plan/sweep.ts', ['lab/stats/sprt.ts']],
      ['lab/index.ts', ['lab/plan/sweep.ts']],
    ]);
    expect(upwardArrows(bad)).toEqual(['engine/rules.ts → agents/random.ts', 'lab/stats/sprt.ts → lab/plan/sweep.ts']);
    expect(circles(bad)).toEqual([['lab/plan/sweep.ts', 'lab/stats/sprt.ts']]);
  });
});
