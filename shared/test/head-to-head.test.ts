/** Head-to-head counts (lab/results/head-to-head.ts) on constructed game summaries. */
import { describe, expect, it } from 'vitest';
import { HeadToHead, wilson, type GameSummary } from '../src/lab/index.js';

/** A summary in which seat i plays `specs[i]` and scores `vp[i]`. */
function game(specs: string[], vp: number[]): GameSummary {
  return {
    players: specs.map((canonical, seat) => ({ seat, canonical, score: { total: vp[seat] } })),
  } as unknown as GameSummary;
}

describe('HeadToHead', () => {
  it('counts, per pair of different agents, more VP as a win and a tie as half, whatever the seats', () => {
    const h = new HeadToHead();
    h.add(game(['x', 'y', 'rb'], [50, 40, 45]));
    h.add(game(['y', 'x', 'rb'], [44, 44, 30]));
    h.add(game(['x', 'y', 'rb'], [30, 41, 52]));
    h.add(game(['rb', 'rb', 'x'], [20, 60, 40]));
    const pairs = h.pairs();
    expect(pairs.map((p) => [p.a, p.b, p.games, p.aMore, p.ties])).toEqual([
      ['rb', 'x', 5, 2, 0],
      ['rb', 'y', 3, 2, 0],
      ['x', 'y', 3, 1, 1],
    ]);
    expect(h.score('x', 'y')!.score).toBeCloseTo(1.5 / 3);
    expect(h.score('y', 'x')!.score).toBeCloseTo(1.5 / 3);
    expect(h.score('x', 'rb')!.score).toBeCloseTo(3 / 5);
    expect(h.score('rb', 'x')!.score).toBeCloseTo(2 / 5);
    const ci = wilson(2, 5);
    expect(h.score('x', 'rb')!.interval.low).toBeCloseTo(1 - ci.high);
    expect(h.score('x', 'nobody')).toBeUndefined();
  });
});
