/**
 * The learned agents' encoding (agents/encoding.ts): one action index per legal move, a mask that
 * is the legal list, and an observation of what the seat may know and nothing more.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT, SEAT_FIELDS, actionIndex, observationSize, writeActionMask, writeObservation } from '../src/agents/encoding.js';
import { CARDS, NUM_CARD_TYPES, Rng, determinize, handBase, legalMoves, newGame } from '../src/engine/index.js';
import { visitRandomGame } from './random-positions.js';

describe('action indices', () => {
  it('name each legal move of a position once, and the mask is exactly the legal list', () => {
    let positions = 0;
    for (const players of [3, 5, 7]) {
      visitRandomGame(players, 40 + players, 9, (s, p) => {
        const legal = legalMoves(s, p, 'cheapest');
        const indices = legal.map(actionIndex);
        expect(new Set(indices).size).toBe(legal.length);
        const mask = new Uint8Array(ACTION_COUNT + 3).fill(7);
        const moves = new Int32Array(ACTION_COUNT);
        expect(writeActionMask(s, p, mask, 3, moves, 0)).toBe(legal.length);
        expect(mask[2]).toBe(7); // nothing written before its place
        for (let a = 0; a < ACTION_COUNT; a++) expect(mask[3 + a]).toBe(indices.includes(a) ? 1 : 0);
        for (const m of legal) expect(moves[actionIndex(m)]).toBe(m);
        positions++;
      });
    }
    expect(positions).toBeGreaterThan(3 * 18 * 3);
  });
});

describe('observation', () => {
  it('has the documented size and layout: Age, turn, phase, own hand, then seat blocks from this seat', () => {
    const s = newGame({ players: 4, seed: 8, sides: 'A' });
    const out = new Uint8Array(observationSize(4));
    expect(out.length).toBe(6 + 2 * NUM_CARD_TYPES + 4 * SEAT_FIELDS);
    expect(writeObservation(s, 2, out)).toBe(out.length);
    expect([out[0], out[1], out[2], out[3], out[4], out[5]]).toEqual([1, 1, 1, 0, 0, 0]);
    const hand = new Array<number>(NUM_CARD_TYPES).fill(0);
    for (let i = 0; i < 7; i++) hand[s.hands[handBase(s, 2) + i]]++;
    expect(Array.from(out.subarray(6, 6 + NUM_CARD_TYPES))).toEqual(hand);
    // The first seat block is seat 2's own: its wonder one-hot, side A, no stages, 3 coins.
    const own = 6 + 2 * NUM_CARD_TYPES;
    expect(out[own + s.board[2]]).toBe(1);
    expect(out[own + 7 + 2]).toBe(3);
    // The second is its left neighbour's (seat 3).
    expect(out[own + SEAT_FIELDS + s.board[3]]).toBe(1);
    expect(CARDS.length).toBe(NUM_CARD_TYPES);
  });

  it('is the same in every world the seat cannot tell from the true one (no hidden card leaks)', () => {
    let compared = 0;
    for (const players of [3, 4, 7]) {
      const rng = new Rng(players);
      visitRandomGame(players, 70 + players, 3, (s, p) => {
        const truth = new Uint8Array(observationSize(players));
        writeObservation(s, p, truth);
        const world = determinize(s, p, rng);
        const seen = new Uint8Array(truth.length);
        writeObservation(world, p, seen);
        expect(seen).toEqual(truth);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('does change when a card the seat can see changes, so the check above can fail', () => {
    const s = newGame({ players: 3, seed: 8 });
    const a = new Uint8Array(observationSize(3));
    writeObservation(s, 0, a);
    const other = s.hands[handBase(s, 0)] === 0 ? 1 : 0;
    s.hands[handBase(s, 0)] = other;
    const b = new Uint8Array(a.length);
    writeObservation(s, 0, b);
    expect(b).not.toEqual(a);
  });
});
