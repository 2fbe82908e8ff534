/**
 * The payment search keeps what it read of each seat's sources (its neighbours' tradable
 * production, its own one-of productions, its prices), and the playouts' capped payments, until the
 * seat's source stamp changes. Every legal-move list must therefore be exactly the one a search
 * that reads everything afresh gives: a clone with new stamps, which nothing kept by stamp can
 * match. (The cheapest payments are kept by what decides them, not by stamp: payment-kept.test.ts
 * checks those against a search that keeps nothing.) Games of different sizes are interleaved so that
 * one seat's kept block serves several states in turn, as in a search with many worlds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_BUILD,
  Rng,
  actingSeats,
  clone,
  copyState,
  legalMoves,
  movePayLeft,
  movePayRight,
  newGame,
  productionChanged,
  step,
  type GameState,
} from '../src/engine/index.js';
import { findMove, game } from './rules-helpers.js';
import { playoutMoves } from '../src/agents/playout-moves.js';

/** The moves listed in `mode`, cheapest ones with the playouts' payment cap `limit` (0: none). */
function listed(s: GameState, p: number, mode: 'cheapest' | 'all', out: number[], limit: number): number[] {
  return mode === 'all' ? legalMoves(s, p, 'all', out) : playoutMoves(s, p, out, limit);
}

function freshlyRead(s: GameState): GameState {
  const c = clone(s);
  productionChanged(c);
  return c;
}

describe('the payment search across production changes', () => {
  it('lists the same legal moves, in every mode, as a search that reads the neighbours afresh', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 7 }), fc.integer({ min: 3, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), (n1, n2, seed) => {
        const games = [newGame({ players: n1, seed }), newGame({ players: n2, seed: seed + 1 })];
        // A world that is reset to a game's state and played on, as a search does with its world.
        const world = clone(games[0]);
        const rng = new Rng(seed);
        while (games.some((g) => !g.isOver())) {
          for (const s of games) {
            if (s.isOver()) continue;
            const moves = new Array<number>(s.n).fill(0);
            for (const p of actingSeats(s)) {
              const reference = freshlyRead(s);
              for (const [mode, limit] of [['cheapest', 0], ['cheapest', 3], ['all', 0]] as const) {
                const expected = listed(reference, p, mode, [], limit);
                expect(listed(s, p, mode, [], limit)).toEqual(expected);
                compared++;
              }
              // Coins are not production: the same stamp is asked again with other budgets.
              const coins = s.coins[p];
              for (const k of [1, 4, 0, 2, 7, 3, coins]) {
                s.coins[p] = k;
                const other = freshlyRead(s);
                for (const limit of [0, 1, 3]) expect(playoutMoves(s, p, [], limit)).toEqual(playoutMoves(other, p, [], limit));
              }
              const legal = legalMoves(s, p, 'cheapest', []);
              moves[p] = legal[rng.int(legal.length)];
            }
            if (s === games[0] && !s.isOver()) {
              copyState(world, s);
              step(world, moves);
              for (const p of actingSeats(world)) expect(legalMoves(world, p, 'cheapest', [])).toEqual(legalMoves(freshlyRead(world), p, 'cheapest', []));
            }
            step(s, moves);
          }
        }
      }),
      { numRuns: 15 },
    );
    expect(compared).toBeGreaterThan(1000);
  });

  // Gizah (stone) needs wood for a Stockade; its left neighbour sells wood only through a Timber
  // Yard (stone or wood), so the search runs. Coins are not production: the stamp stays, and the
  // kept answer must still follow the coins both ways.
  it('follows the coins when production stays: unaffordable at 1 coin, then 2 to the left at 3, then unaffordable again', () => {
    const s = game(1, [
      { wonder: 'Gizah', coins: 1, hand: ['Stockade'] },
      { wonder: 'Rhodes', built: ['Timber Yard'] },
      { wonder: 'Babylon' },
    ]);
    const stamps = Array.from(s.sourceStamps);
    const paid = () => {
      const m = findMove(s, 0, 'Stockade', ACTION_BUILD);
      return m === undefined ? undefined : [movePayLeft(m), movePayRight(m)];
    };
    expect(paid()).toBeUndefined();
    s.coins[0] = 3;
    expect(paid()).toEqual([2, 0]);
    s.coins[0] = 1;
    expect(paid()).toBeUndefined();
    expect(Array.from(s.sourceStamps)).toEqual(stamps);
  });
});
