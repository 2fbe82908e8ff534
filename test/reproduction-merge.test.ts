/**
 * A preset played in parts (reproduction/scripts/merge.mjs, `lab.mjs collect --merge`): a matchup's
 * pairs played in two sweeps make one result, its cells and their seat orders in the sweep's order.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the reproduction scripts, without types.
import { matchupPairs, mergeResults, mergedSweeps } from '../reproduction/scripts/merge.mjs';

const specs = ['a', 'b', 'c'];

/** A saved result of a matchup sweep over `pairs` (indices into specs), each cell `games` games. */
function part(pairs: number[][], sweep: string, commit: string, games: number, span = ['2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z']) {
  const cells = pairs.map(([i, j], index) => ({ index, agents: [specs[i], specs[j], 'r'], swept: { 'matchup.0': specs[i], 'matchup.1': specs[j] }, games }));
  return {
    spec: { name: 'x', seats: ['a', 'b', 'r'], matchup: { specs, seats: [0, 1], pairs } },
    gamesPerCell: games,
    cells,
    pooled: [{ agent: 'a' }],
    parameters: [],
    orders: cells.map((c) => ({ cell: c.index, orders: [{ order: c.agents, standings: [{ agent: c.agents[0], games }] }] })),
    provenance: { commit },
    lab: { sweep, games: games * pairs.length, wallSeconds: 10, commit, firstGameAt: span[0], lastGameAt: span[1] },
  };
}

describe('a matchup played in parts', () => {
  it('lists every ordered pair when the spec names none', () => {
    expect(matchupPairs({ matchup: { specs, seats: [0, 1] } })).toEqual([[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]]);
  });

  it('merges the pairs of two parts in the sweep\'s order, each cell keeping its own seat orders', () => {
    const first = part([[1, 0], [2, 1]], 's1', 'c1', 100, ['2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z']);
    const second = part([[0, 1], [0, 2], [1, 2], [2, 0]], 's2', 'c2', 100, ['2026-01-02T00:00:00Z', '2026-01-02T03:00:00Z']);
    const merged = mergeResults(first, second);
    expect(merged.cells.map((c: { agents: string[] }) => c.agents.slice(0, 2).join(''))).toEqual(['ab', 'ac', 'ba', 'bc', 'ca', 'cb']);
    expect(merged.cells.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Each cell's seat orders follow it to its new index.
    for (const o of merged.orders) expect(o.orders[0].order).toEqual(merged.cells[o.cell].agents);
    // Every ordered pair played: the spec is written as a preset that names no pairs.
    expect(merged.spec.matchup).toEqual({ specs, seats: [0, 1] });
    // The lab's record spans both parts: the first part's first game, the second's last.
    expect(merged.lab).toMatchObject({ sweep: 's1 + s2', games: 600, commit: 'c1 + c2', firstGameAt: '2026-01-01T00:00:00Z', lastGameAt: '2026-01-02T03:00:00Z' });
    expect(merged.provenance.parts).toEqual([{ commit: 'c1' }, { commit: 'c2' }]);
    expect(merged.pooled).toBeUndefined();
    // collect --merge skips a sweep already merged: it would count its games twice.
    expect(mergedSweeps(merged)).toEqual(['s1', 's2']);
    expect(mergedSweeps(first)).toEqual(['s1']);
  });

  it('keeps the pairs so far when the parts do not cover the matchup', () => {
    const merged = mergeResults(part([[0, 2]], 's1', 'c1', 50), part([[0, 1]], 's2', 'c1', 50));
    expect(merged.spec.matchup.pairs).toEqual([[0, 1], [0, 2]]);
    expect(merged.cells.map((c: { swept: Record<string, string> }) => c.swept['matchup.1'])).toEqual(['b', 'c']);
  });
});
