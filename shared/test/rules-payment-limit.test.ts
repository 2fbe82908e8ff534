/**
 * The playouts' cap on the payment search (playoutMoves' `branchLimit`, the 2014 paper's trade
 * limit L): it only ever removes moves, it removes some when tight, and it is a per-call argument,
 * so a capped call leaves the next uncapped one untouched; uncapped, the list is legalMoves'. The
 * cap stops the engine's search early, read off its trail (cheapestSearchTrail): that trail must
 * end at the rules' answer, each payment better than the last, found in node order.
 */
import { describe, expect, it } from 'vitest';
import { playoutMoves } from '../src/agents/playout-moves.js';
import { cappedStagePayment, writeCappedBuilds } from '../src/agents/playout-payment.js';
import {
  ACTION_BUILD,
  ACTION_FREE_BUILD,
  CARDS,
  NO_PAYMENT,
  cheapestForLoaded,
  cheapestSearchTrail,
  encodeMove,
  hasChain,
  legalMoves,
  nextStage,
  ownsNameIndex,
  loadSeat,
  moveAction,
  moveCard,
  paymentLeft,
  paymentRight,
} from '../src/engine/index.js';
import { visitRandomGame } from './random-positions.js';

describe('playoutMoves with a branch limit', () => {
  it('is a subset of the uncapped moves (free builds aside), drops some at a limit of 1, and does not leak into later calls', () => {
    let dropped = 0;
    let positions = 0;
    for (let seed = 1; seed <= 30; seed++) {
      visitRandomGame(4, seed, seed, (s, p) => {
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
      });
    }
    expect(positions).toBeGreaterThan(1000);
    expect(dropped, 'a cap of one search node makes some bought payments unfindable').toBeGreaterThan(0);
  });

  it('reads the search trail: it ends at cheapestForLoaded’s answer, each payment cheaper than the last, in node order', () => {
    const pays: number[] = [];
    const nodes: number[] = [];
    let searched = 0;
    const total = (m: number) => paymentLeft(m) + paymentRight(m);
    for (let seed = 1; seed <= 4; seed++) {
      visitRandomGame(5, seed, seed, (s, p) => {
        loadSeat(s, p);
        for (const card of CARDS) {
          for (const coins of [0, 2, s.coins[p]]) {
            const n = cheapestSearchTrail(card.costPacked, coins, pays, nodes);
            expect(n > 0 ? pays[n - 1] : NO_PAYMENT).toBe(cheapestForLoaded(card.costPacked, coins));
            for (let i = 1; i < n; i++) {
              expect(nodes[i]).toBeGreaterThan(nodes[i - 1]);
              const better = total(pays[i]) < total(pays[i - 1]) || (total(pays[i]) === total(pays[i - 1]) && paymentRight(pays[i]) < paymentRight(pays[i - 1]));
              expect(better).toBe(true);
            }
            if (n > 1) searched++;
            // A horizon asks for the trail's first nodes only: the full trail's entries up to it.
            const h = n > 1 ? nodes[n - 1] - 1 : 1;
            const fullPays = pays.slice(0, n);
            const fullNodes = nodes.slice(0, n);
            const m = cheapestSearchTrail(card.costPacked, coins, pays, nodes, h);
            const upTo = fullNodes.filter((x) => x <= h).length;
            expect(m).toBe(upTo);
            expect(pays.slice(0, m)).toEqual(fullPays.slice(0, upTo));
            expect(nodes.slice(0, m)).toEqual(fullNodes.slice(0, upTo));
          }
        }
      });
    }
    expect(searched, 'some searches improve on their first payment').toBeGreaterThan(0);
  });
});

describe('capped payments kept between calls (playout-payment.ts)', () => {
  /** The capped answer read off a fresh trail: the last payment found within `cap` nodes. */
  function fromTrail(costPacked: number, coins: number, cap: number): number {
    const pays: number[] = [];
    const nodes: number[] = [];
    const n = cheapestSearchTrail(costPacked, coins, pays, nodes);
    for (let i = n - 1; i >= 0; i--) if (nodes[i] <= cap) return pays[i];
    return NO_PAYMENT;
  }

  it('answer every position as a fresh search would, however many positions and caps came before', () => {
    let asked = 0;
    let bought = 0;
    for (let seed = 1; seed <= 12; seed++) {
      visitRandomGame(3 + (seed % 5), seed, seed, (s, p) => {
        for (const cap of [1, 2, 5, 8, 24]) {
          loadSeat(s, p);
          const stage = nextStage(s, p);
          expect(cappedStagePayment(s, p, cap)).toBe(stage ? fromTrail(stage.costPacked, s.coins[p], cap) : NO_PAYMENT);
          for (let c = 0; c < CARDS.length; c += 3) {
            if (s.ownsName[ownsNameIndex(p, CARDS[c].nameId)] || hasChain(s, p, c) || CARDS[c].coinCost > s.coins[p]) continue;
            const out: number[] = [];
            const k = writeCappedBuilds(s, p, c, false, out, 0, cap);
            const pay = fromTrail(CARDS[c].costPacked, s.coins[p] - CARDS[c].coinCost, cap);
            expect(out.slice(0, k)).toEqual(pay === NO_PAYMENT ? [] : [encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay))]);
            asked++;
            if (pay !== NO_PAYMENT && pay !== 0) bought++;
          }
        }
      });
    }
    expect(asked).toBeGreaterThan(10000);
    expect(bought, 'some capped answers buy from neighbours').toBeGreaterThan(1000);
  });
});
