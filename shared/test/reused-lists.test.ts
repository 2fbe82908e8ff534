/**
 * The hot paths fill lists the caller reuses from call to call (legal moves, grouped arms, tree
 * keys, rule candidates), overwriting them by index and cutting them to length at the end. A list
 * that still holds a longer, earlier content must come out exactly as a fresh one would: nothing
 * of the old tail may survive or be read (a membership test over stale entries would drop arms).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thesisRuleCandidates } from '../src/agents/index.js';
import { DISCARD_ARM, MoveKeys, armOf, groupArms } from '../src/agents/mcts/arms.js';
import { playoutMoves } from '../src/agents/playout-moves.js';
import { ACTION_STAGE, Rng, actingSeats, encodeMove, legalMoves, newGame, step, type GameState } from '../src/engine/index.js';

/** The moves listed in `mode`, cheapest ones with the playouts' payment cap `limit` (0: none). */
function listed(s: GameState, p: number, mode: 'cheapest' | 'all', out: number[], limit: number): number[] {
  return mode === 'all' ? legalMoves(s, p, 'all', out) : playoutMoves(s, p, out, limit);
}

/** Stale content that looks like what the lists hold: arms, and moves of every card and action. */
function stale(list: number[], rng: Rng): number[] {
  const len = 20 + rng.int(30);
  for (let i = 0; i < len; i++) {
    const k = rng.int(4);
    list[i] = k === 0 ? DISCARD_ARM : k === 1 ? armOf(encodeMove(rng.int(80), ACTION_STAGE)) : encodeMove(rng.int(80), rng.int(5), rng.int(4), rng.int(4));
  }
  list.length = len;
  return list;
}

describe('reused lists', () => {
  it('legalMoves, groupArms, MoveKeys.keys and thesisRuleCandidates give into a used list what they give into a fresh one', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), (players, seed) => {
        const s = newGame({ players, seed });
        const rng = new Rng(seed);
        const junk = new Rng(seed + 1);
        const moves = new Array<number>(players).fill(0);
        const legalBuf: number[] = [];
        const armsBuf: number[] = [];
        const keysBuf: number[] = [];
        const candidatesBuf: number[] = [];
        const keysOf = [new MoveKeys(true, 'cheapest'), new MoveKeys(false, 'all'), new MoveKeys(true, 'all')];
        while (!s.isOver()) {
          for (const p of actingSeats(s)) {
            for (const [mode, limit] of [['cheapest', 0], ['cheapest', 2], ['all', 0]] as const) {
              const fresh = listed(s, p, mode, [], limit);
              expect(listed(s, p, mode, stale(legalBuf, junk), limit)).toEqual(fresh);
              expect(groupArms(fresh, stale(armsBuf, junk))).toEqual(groupArms(fresh, []));
              for (const keys of keysOf) expect(keys.keys(fresh, stale(keysBuf, junk))).toEqual(keys.keys(fresh, []));
              compared++;
            }
            const legal = legalMoves(s, p, 'cheapest', []);
            const fresh: number[] = [];
            const rule = thesisRuleCandidates(s, p, legal, fresh);
            expect(thesisRuleCandidates(s, p, legal, stale(candidatesBuf, junk))).toBe(rule);
            expect(candidatesBuf).toEqual(fresh);
            moves[p] = legal[rng.int(legal.length)];
          }
          step(s, moves);
        }
      }),
      { numRuns: 12 },
    );
    expect(compared).toBeGreaterThan(1000);
  });
});
