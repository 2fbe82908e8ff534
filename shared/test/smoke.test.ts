import { describe, expect, it } from 'vitest';
import { Rng, gameResult, newGame, playRandom, type RandomDraw } from '../src/engine/index.js';

describe('a random game', () => {
  it('ends after 3 Ages with a winner for every player count, either way of drawing', () => {
    for (const draw of ['lazily', 'listing'] as const) {
      for (let n = 3; n <= 7; n++) {
        const s = newGame({ players: n, seed: n });
        playRandom(s, new Rng(n), draw);
        expect(s.isOver()).toBe(true);
        expect(s.age).toBe(3);
        expect(gameResult(s).winners.length).toBeGreaterThan(0);
      }
    }
  });

  it('replays identically from the same seeds', () => {
    for (const draw of ['lazily', 'listing'] as const) {
      const a = newGame({ players: 5, seed: 11 });
      const b = newGame({ players: 5, seed: 11 });
      playRandom(a, new Rng(4), draw);
      playRandom(b, new Rng(4), draw);
      expect(a.bytes).toEqual(b.bytes);
    }
  });

  // The lazy draw takes the first legal move of a shuffled list of every possible one: were it
  // biased (say towards discards, which are always legal), games would end with fuller discard
  // piles and fewer points than games drawn from the full listing.
  it('draws lazily from the same distribution of games as from the listing', () => {
    const games = 1500;
    const measure = (draw: RandomDraw) => {
      const discards: number[] = [];
      const points: number[] = [];
      for (let g = 0; g < games; g++) {
        const s = newGame({ players: 3, seed: `dist-${g}` });
        playRandom(s, new Rng(g), draw);
        discards.push(s.discard.reduce((a, b) => a + b, 0));
        points.push(gameResult(s).scores.reduce((a, x) => a + x.total, 0));
      }
      return { discards, points };
    };
    const z = (a: number[], b: number[]) => {
      const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
      const variance = (x: number[]) => x.reduce((s, v) => s + (v - mean(x)) ** 2, 0) / (x.length - 1);
      return (mean(a) - mean(b)) / Math.sqrt(variance(a) / a.length + variance(b) / b.length);
    };
    const lazily = measure('lazily');
    const listing = measure('listing');
    expect(Math.abs(z(lazily.discards, listing.discards))).toBeLessThan(4);
    expect(Math.abs(z(lazily.points, listing.points))).toBeLessThan(4);
  });
});
