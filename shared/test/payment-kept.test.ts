/**
 * The payment search keeps its answers under a name made of what decides them (payment.ts): the
 * missing units and, of the seat's sources, only what could give one of them. An answer kept under
 * a name that leaves out something that matters would be served to a seat it is wrong for, so
 * every kept answer is checked against one worked out with no keeping at all: the cheapest of
 * allPayments' undominated payments (least total, then least paid to the right), whose search
 * keeps nothing. Games of every size run one after the other, so that the kept answers of one
 * serve the next, as in a game thread. The name is read off the state's packed production, which
 * the rules keep beside the arrays it packs: it must say what they say at every step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOARDS,
  CARDS,
  NO_PAYMENT,
  allPayments,
  cheapestPayment,
  clone,
  nonZeroLanes,
  paymentLeft,
  paymentRight,
  productionChanged,
  type GameState,
} from '../src/engine/index.js';
import { visitRandomGame } from './random-positions.js';

/** Every cost the rules price: the cards' and the wonder stages'. */
const COSTS: readonly (readonly number[])[] = [...CARDS.map((c) => c.cost), ...BOARDS.flatMap((b) => b.sides.flatMap((side) => side.map((stage) => stage.cost)))];

/** The cheapest payment by allPayments' front: least total, ties to the least paid to the right. */
function cheapestOfFront(s: GameState, p: number, cost: readonly number[], coins: number): number {
  const front: number[] = [];
  allPayments(s, p, cost, coins, front);
  let best = NO_PAYMENT;
  for (const pay of front) {
    const total = paymentLeft(pay) + paymentRight(pay);
    const bestTotal = paymentLeft(best) + paymentRight(best);
    if (best === NO_PAYMENT || total < bestTotal || (total === bestTotal && paymentRight(pay) < paymentRight(best))) best = pay;
  }
  return best;
}

describe('kept cheapest payments', () => {
  it('are the cheapest of the undominated payments, for every cost, seat and budget, across games of 3–7 players', () => {
    let compared = 0;
    let bought = 0;
    for (let seed = 1; seed <= 4; seed++) {
      for (let players = 3; players <= 7; players++) {
        visitRandomGame(players, 1000 * seed + players, seed, (s, p) => {
          for (const cost of COSTS) {
            for (const coins of [0, 1, 2, 3, 5, 8, 30]) {
              const expected = cheapestOfFront(s, p, cost, coins);
              expect(cheapestPayment(s, p, cost, coins)).toBe(expected);
              compared++;
              if (expected > 0) bought++;
            }
          }
        });
      }
    }
    // The comparisons must include payments that buy from the neighbours, not only free ones.
    expect(compared).toBeGreaterThan(40_000);
    expect(bought).toBeGreaterThan(4_000);
  });

  it('are named from a packed production that says what the arrays say, at every step of games of 3–7 players', () => {
    let checked = 0;
    for (let seed = 1; seed <= 6; seed++) {
      for (let players = 3; players <= 7; players++) {
        visitRandomGame(players, 2000 * seed + players, seed, (s) => {
          const repacked = clone(s);
          productionChanged(repacked);
          expect(Array.from(s.packed)).toEqual(Array.from(repacked.packed));
          checked++;
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('read a packed word\'s non-zero lanes as the lanes one by one say', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 7 }), (word, zeroed) => {
        // Clear some lanes, so that words with zero and non-zero lanes both come up.
        const w = word & ~(0x0f0f0f0f << (zeroed & 4));
        let expected = 0;
        for (let lane = 0; lane < 8; lane++) if ((w >>> (4 * lane)) & 15) expected |= 1 << lane;
        expect(nonZeroLanes(w)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
