/**
 * The playouts' capped payment search (the `tl` option) keeps its answers under the name of the
 * trail the engine's search walks (trailNameForLoaded) and the cap: an answer kept under a name
 * that leaves out something the trail depends on (the order the one-of productions were gained
 * in, the budget, the cap) would be served to a seat it is wrong for. So every answer is checked
 * against one read off a fresh trail (cheapestSearchTrail, which keeps nothing), for every cost,
 * seat, budget and cap, in games of every size one after the other, as in a game thread.
 */
import { describe, expect, it } from 'vitest';
import {
  BOARDS,
  CARDS,
  CHOICE_MASKS,
  NO_PAYMENT,
  cheapestSearchTrail,
  choiceBase,
  loadSeat,
  newGame,
  packResources,
  productionChanged,
  type GameState,
} from '../src/engine/index.js';
import { cappedCheapest } from '../src/agents/playout-payment.js';
import { visitRandomGame } from './random-positions.js';

/** Every cost the rules price, packed: the cards' and the wonder stages'. */
const COSTS = [...CARDS.map((c) => c.cost), ...BOARDS.flatMap((b) => b.sides.flatMap((side) => side.map((stage) => stage.cost)))].map((cost) => packResources(cost));

const pays: number[] = [];
const nodes: number[] = [];

/** The best payment of the whole search's trail found within `cap` nodes (NO_PAYMENT: none), nothing kept. */
function fromTrail(costPacked: number, coins: number, cap: number): number {
  let best = NO_PAYMENT;
  const n = cheapestSearchTrail(costPacked, coins, pays, nodes);
  for (let i = 0; i < n; i++) if (nodes[i] <= cap) best = pays[i];
  return best;
}

describe('kept capped payments', () => {
  it('are what the search finds within the cap, for every cost, seat, budget and cap, across games of 3–7 players', () => {
    let compared = 0;
    let cut = 0;
    for (let seed = 1; seed <= 1; seed++) {
      for (let players = 3; players <= 7; players++) {
        visitRandomGame(players, 3000 * seed + players, seed, (s, p) => {
          loadSeat(s, p);
          for (const cost of COSTS) {
            for (const coins of [0, 2, 5, 30]) {
              for (const cap of [1, 3, 8]) {
                const expected = fromTrail(cost, coins, cap);
                expect(cappedCheapest(cost, coins, cap)).toBe(expected);
                compared++;
                if (expected !== fromTrail(cost, coins, 1_000_000)) cut++;
              }
            }
          }
        });
      }
    }
    expect(compared).toBeGreaterThan(15_000);
    // The cap must matter in some of them: answers the whole search improves on.
    expect(cut).toBeGreaterThan(150);
  });

  // Random games seldom give one party two one-of productions that offer the same missing
  // resource, gained in both orders: here every pair of the catalogue's one-of masks is given to a
  // seat (own) or to its left neighbour (tradable) in one order and then the other, and every cost
  // priced at small caps, the second order right after the first, so that a name without the
  // order would serve the first order's answer to the second.
  it('tell apart the orders in which a party gained its one-of productions', () => {
    const withChoices = (first: number, second: number, neighbour: boolean): GameState => {
      const s = newGame({ players: 3, seed: 5, boards: ['Gizah', 'Babylon', 'Ephesos'], sides: 'A' });
      const seat = neighbour ? 1 : 0;
      const masks = neighbour ? s.tradeChoices : s.choices;
      const lengths = neighbour ? s.tradeChoiceLen : s.choiceLen;
      masks[choiceBase(seat)] = first;
      masks[choiceBase(seat) + 1] = second;
      lengths[seat] = 2;
      productionChanged(s);
      return s;
    };
    let compared = 0;
    let ordersDiffer = 0;
    for (const neighbour of [false, true]) {
      for (const a of CHOICE_MASKS) {
        for (const b of CHOICE_MASKS) {
          if (a >= b || !(a & b)) continue;
          const ab = withChoices(a, b, neighbour);
          const ba = withChoices(b, a, neighbour);
          for (const cost of COSTS) {
            for (const cap of [1, 2, 3, 4, 6]) {
              loadSeat(ab, 0);
              const first = fromTrail(cost, 30, cap);
              expect(cappedCheapest(cost, 30, cap)).toBe(first);
              loadSeat(ba, 0);
              const second = fromTrail(cost, 30, cap);
              expect(cappedCheapest(cost, 30, cap)).toBe(second);
              compared += 2;
              if (first !== second) ordersDiffer++;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1_000);
    // The order must change some answers, or this test could not tell a name without it.
    expect(ordersDiffer).toBeGreaterThan(0);
  });
});
