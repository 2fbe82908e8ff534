import { describe, expect, it } from 'vitest';
import { Rng, gameResult, newGame, playRandom } from '../src/engine/index.js';

describe('a random game', () => {
  it('ends after 3 Ages with a winner for every player count', () => {
    for (let n = 3; n <= 7; n++) {
      const s = newGame({ players: n, seed: n });
      playRandom(s, new Rng(n));
      expect(s.isOver()).toBe(true);
      expect(s.age).toBe(3);
      expect(gameResult(s).winners.length).toBeGreaterThan(0);
    }
  });
});
