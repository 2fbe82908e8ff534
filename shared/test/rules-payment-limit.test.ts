/**
 * The payment search's branch cap (legalMoves' `branchLimit`, the 2014 paper's trade limit L): it
 * only ever removes moves, it removes some when tight, and it is a per-call argument, so a capped
 * call leaves the next uncapped one untouched.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD, ACTION_FREE_BUILD, Rng, actingSeats, legalMoves, moveAction, moveCard, movePayLeft, movePayRight, newGame, step } from '../src/engine/index.js';

describe('legalMoves with a branch limit', () => {
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
          const capped = legalMoves(s, p, 'cheapest', [], 1);
          const again = legalMoves(s, p, 'cheapest', []);
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

/**
 * tradeOrder (the 2014 paper's playouts): the trade choices are tried in a random order and the
 * first payment found is paid. Checked against the cheapest-first search on every seat of random
 * games: the same cards are payable when nothing caps the search, each payment costs at least the
 * cheapest and pays for the card, and the order is really drawn.
 */
describe('legalMoves with a random trade order', () => {
  const paymentOf = (m: number) => [movePayLeft(m), movePayRight(m)] as const;
  // Olympia's free build is offered when building costs something, which a dearer payment may make it.
  const notFree = (list: number[]) => list.filter((m) => moveAction(m) !== ACTION_FREE_BUILD);
  it('uncapped: the same moves, each paid at least the cheapest total and by some payment the cost allows; capped: a subset', () => {
    let bought = 0;
    let dearer = 0;
    let capDropped = 0;
    const distinct = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const s = newGame({ players: 4, seed });
      const rng = new Rng(seed);
      const order = new Rng(1000 + seed);
      const moves = new Int32Array(4);
      while (!s.isOver()) {
        for (const p of actingSeats(s)) {
          const cheapest = notFree(legalMoves(s, p, 'cheapest', []));
          const random = notFree(legalMoves(s, p, 'cheapest', [], 0, order));
          const every = legalMoves(s, p, 'all', []);
          const key = (m: number) => `${moveCard(m)}/${moveAction(m)}`;
          expect(random.map(key)).toEqual(cheapest.map(key));
          for (let i = 0; i < random.length; i++) {
            const [l, r] = paymentOf(random[i]);
            const [cl, cr] = paymentOf(cheapest[i]);
            expect(l + r).toBeGreaterThanOrEqual(cl + cr);
            if (l + r > 0) {
              bought++;
              distinct.add(`${seed}/${s.age}/${s.turn}/${p}/${key(random[i])}/${l}/${r}`);
              // Some undominated payment of the same move pays each neighbour at most as much.
              expect(every.some((m) => key(m) === key(random[i]) && movePayLeft(m) <= l && movePayRight(m) <= r), `${key(random[i])} paid ${l}/${r}`).toBe(true);
            }
            if (l + r > cl + cr) dearer++;
          }
          const capped = notFree(legalMoves(s, p, 'cheapest', [], 1, order));
          for (const m of capped) expect(cheapest.map(key)).toContain(key(m));
          capDropped += cheapest.length - capped.length;
          moves[p] = cheapest[rng.int(cheapest.length)];
        }
        step(s, moves);
      }
    }
    expect(bought).toBeGreaterThan(500);
    expect(dearer, 'an order drawn at random pays more than the cheapest some of the time').toBeGreaterThan(0);
    expect(capDropped, 'a cap of one dead end drops some payable cards').toBeGreaterThan(0);
  });

  it('is drawn from the generator: the same seed gives the same payments, other seeds other ones', () => {
    const payments = (orderSeed: number) => {
      const out: number[] = [];
      for (let seed = 1; seed <= 10; seed++) {
        const s = newGame({ players: 5, seed });
        const rng = new Rng(seed);
        const order = new Rng(orderSeed);
        const moves = new Int32Array(5);
        while (!s.isOver()) {
          for (const p of actingSeats(s)) {
            const list = legalMoves(s, p, 'cheapest', [], 0, order);
            out.push(...list);
            moves[p] = legalMoves(s, p, 'cheapest', [])[rng.int(list.length)];
          }
          step(s, moves);
        }
      }
      return out;
    };
    expect(payments(7)).toEqual(payments(7));
    expect(payments(7)).not.toEqual(payments(8));
  });
});
