/**
 * The playouts' cap on the payment search (playoutMoves' `branchLimit`, the 2014 paper's trade
 * limit L): it only ever removes moves, it removes some when tight, and it is a per-call argument,
 * so a capped call leaves the next uncapped one untouched; uncapped, the list is legalMoves'.
 */
import { describe, expect, it } from 'vitest';
import { playoutMoves } from '../src/agents/playout-moves.js';
import { ACTION_BUILD, ACTION_FREE_BUILD, Rng, actingSeats, legalMoves, moveAction, moveCard, newGame, step } from '../src/engine/index.js';

describe('playoutMoves with a branch limit', () => {
  it('is a subset of the uncapped moves (free builds aside), drops some at a limit of 1, and does not leak into later calls', () => {
    let dropped = 0;
    let positions = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const s = newGame({ players: 4, seed });
      const rng = new Rng(seed);
      const moves = new Int32Array(4);
      while (!s.isOver()) {
        for (const p of actingSeats(s)) {
          const full = legalMoves(s, p, 'cheapest', []);
          const capped = playoutMoves(s, p, [], 1);
          const again = legalMoves(s, p, 'cheapest', []);
          expect(playoutMoves(s, p, [], 0)).toEqual(full);
          positions++;
          expect(again).toEqual(full);
          for (const m of capped) {
            // Olympia's free build is offered exactly when the paid build is not: a build the cap
            // hides may bring it in.
            if (moveAction(m) === ACTION_FREE_BUILD && !full.includes(m)) expect(capped.some((x) => moveCard(x) === moveCard(m) && moveAction(x) === ACTION_BUILD)).toBe(false);
            else expect(full).toContain(m);
          }
          dropped += full.length - capped.length;
          moves[p] = full[rng.int(full.length)];
        }
        step(s, moves);
      }
    }
    expect(positions).toBeGreaterThan(1000);
    expect(dropped, 'a cap of one search node makes some bought payments unfindable').toBeGreaterThan(0);
  });
});
