/**
 * isLegalMove: the check for moves that come from outside the engine (records, the API, positions
 * written by hand). It accepts exactly what legalMoves lists in 'all' mode for a seat that acts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  ACTION_STAGE,
  CARDS,
  actingSeats,
  encodeMove,
  handView,
  isLegalMove,
  legalMoves,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
} from '../src/engine/index.js';
import { randomPosition } from './random-positions.js';

const position = fc.tuple(fc.integer({ min: 3, max: 7 }), fc.integer(), fc.integer(), fc.integer({ min: 0, max: 20 }));

describe('isLegalMove', () => {
  it('property: every move legalMoves lists, in either mode, is legal for the seat it was listed for', () => {
    fc.assert(
      fc.property(position, ([players, seed, moveSeed, steps]) => {
        const s = randomPosition(players, seed, moveSeed, steps);
        for (const p of actingSeats(s)) {
          for (const m of legalMoves(s, p, 'cheapest')) expect(isLegalMove(s, p, m)).toBe(true);
          for (const m of legalMoves(s, p, 'all')) expect(isLegalMove(s, p, m)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('property: a card not in hand, a seat that does not act, and a payment one coin off are refused', () => {
    fc.assert(
      fc.property(position, fc.nat(), ([players, seed, moveSeed, steps], pick) => {
        const s = randomPosition(players, seed, moveSeed, steps);
        const acting = new Set(actingSeats(s));
        for (let p = 0; p < players; p++) {
          const legal = legalMoves(s, p, 'all');
          if (!acting.has(p)) {
            // A seat that does not act now has no legal move, whatever it tries.
            expect(legal).toEqual([]);
            expect(isLegalMove(s, p, encodeMove(0, ACTION_DISCARD))).toBe(false);
            continue;
          }
          const hand = new Set(handView(s, p));
          const notHeld = CARDS.findIndex((_, c) => !hand.has(c));
          expect(isLegalMove(s, p, encodeMove(notHeld, ACTION_DISCARD))).toBe(false);
          const m = legal[pick % legal.length];
          const paid = moveAction(m) === ACTION_BUILD || moveAction(m) === ACTION_STAGE;
          // Paying one more coin to the left than a listed split is dominated by it: refused.
          const more = encodeMove(moveCard(m), moveAction(m), movePayLeft(m) + 1, movePayRight(m));
          if (paid) expect(isLegalMove(s, p, more)).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the first turn of a seeded game: a discard of a held card is legal, of another card or by seat 9 not', () => {
    const s = randomPosition(3, 7, 0, 0);
    const held = s.hands[0];
    const other = CARDS.findIndex((_, c) => !Array.from(s.hands.subarray(0, s.handLen[0])).includes(c));
    expect(isLegalMove(s, 0, encodeMove(held, ACTION_DISCARD))).toBe(true);
    expect(isLegalMove(s, 0, encodeMove(other, ACTION_DISCARD))).toBe(false);
    expect(isLegalMove(s, 9, encodeMove(held, ACTION_DISCARD))).toBe(false);
    expect(isLegalMove(s, -1, encodeMove(held, ACTION_DISCARD))).toBe(false);
  });
});
