/**
 * Move logs (engine/move-log.ts) and their stored form (lab/results/codec.ts): a game's record built
 * from its log is the record built move by move while it was played; a packed log reads back as
 * the same log; records stored before logs (deflated JSON) still read; a log that does not fit its
 * game is refused, naming where.
 */
import fc from 'fast-check';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  Rng,
  actingSeats,
  legalMoves,
  logStep,
  newGame,
  recordFromLog,
  recordStep,
  startLog,
  startRecord,
  type GameConfig,
  type GameRecord,
  type MoveLog,
} from '../src/engine/index.js';
import { playGame, type GamePlan } from '../src/lab/index.js';
import { isPackedForm, pack, packLog, unpackLog, unpackRecord } from '../src/lab/results/codec.js';

/** A game of uniformly random moves (any payment), recorded both ways at once. */
function playBothWays(config: GameConfig, moveSeed: number): { log: MoveLog; record: GameRecord } {
  const s = newGame(config);
  const record = startRecord(config, s);
  const log = startLog(config);
  const rng = new Rng(moveSeed);
  const moves = new Int32Array(s.n);
  while (!s.isOver()) {
    for (const seat of actingSeats(s)) {
      const legal = legalMoves(s, seat, 'all');
      moves[seat] = legal[rng.int(legal.length)];
    }
    logStep(log, s, moves);
    recordStep(record, s, moves);
  }
  return { log, record };
}

const configs = fc.record({
  players: fc.integer({ min: 3, max: 7 }),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  sides: fc.constantFrom('A' as const, 'B' as const, 'random' as const),
});

function mctsPlan(seed: number): GamePlan {
  return { id: `log-${seed}`, index: 0, seed, set: -1, deal: 0, seating: 0, agents: ['mcts(it=20)', 'rulebased', 'mcts(it=16,det=pimc,worlds=2)'], sides: 'random', open: false };
}

describe('move logs', () => {
  it('the record built from a log is the record built while the game was played', () => {
    fc.assert(
      fc.property(configs, fc.integer(), (config, moveSeed) => {
        const { log, record } = playBothWays(config, moveSeed);
        expect(recordFromLog(log)).toEqual(record);
      }),
      { numRuns: 40 },
    );
  });

  it('a packed log reads back as the same log, with or without searches, and as the same record', () => {
    fc.assert(
      fc.property(configs, fc.integer(), (config, moveSeed) => {
        const { log, record } = playBothWays(config, moveSeed);
        const packed = packLog(log);
        expect(isPackedForm(packed)).toBe(true);
        expect(unpackLog(packed)).toEqual(log);
        expect(unpackRecord(packed)).toEqual(record);
      }),
      { numRuns: 40 },
    );
    const log = playGame(mctsPlan(2), { record: true }).log!;
    expect(log.searches.length).toBeGreaterThan(10);
    expect(unpackLog(packLog(log))).toEqual(log);
    expect(unpackRecord(packLog(log))).toEqual(recordFromLog(log));
  });

  it('each search sits on the move it chose, and the record names that move among the search’s moves', () => {
    const log = playGame(mctsPlan(3), { record: true }).log!;
    const record = recordFromLog(log);
    const moves = record.steps.flatMap((s) => s.moves);
    expect(moves).toHaveLength(log.moves.length);
    for (const search of log.searches) {
      expect(search.moves.map((m) => m.move)).toContain(log.moves[search.at]);
      const recorded = moves[search.at].search!;
      expect(recorded.iterations).toBe(search.iterations);
      expect(recorded.moves.some((m) => m.move.card === moves[search.at].card && m.move.action === moves[search.at].action)).toBe(true);
    }
    expect(moves.filter((m) => m.search)).toHaveLength(log.searches.length);
  });

  it('a record stored before logs (deflated JSON) still reads, and can never be taken for a log', () => {
    const { record } = playBothWays({ players: 4, seed: 9, sides: 'random' }, 1);
    const legacy = pack(record);
    expect(isPackedForm(legacy)).toBe(false);
    expect(unpackRecord(legacy)).toEqual(record);
    // A raw deflate stream starting with the log's first byte would announce block type 3, which zlib refuses.
    const packed = packLog(playBothWays({ players: 3, seed: 9, sides: 'A' }, 2).log);
    expect(() => inflateRawSync(packed)).toThrow(/invalid block type/);
  });

  it('a log that does not fit its game is refused, naming the move', () => {
    const { log } = playBothWays({ players: 3, seed: 5, sides: 'A' }, 3);
    expect(() => recordFromLog({ ...log, moves: log.moves.slice(0, -2) })).toThrow(/ends at move \d+, before the game does/);
    expect(() => recordFromLog({ ...log, moves: [...log.moves, log.moves[0]] })).toThrow(/1 moves after the game's end/);
    const wrong = [...log.moves];
    wrong[4] = wrong[4] ^ (1 << 18); // paying the right neighbour a coin it is not owed
    expect(() => recordFromLog({ ...log, moves: wrong })).toThrow(/move 4 \(\d+\) is not legal for seat 1/);
  });

  it('a damaged packed log is refused with a clear error', () => {
    const packed = packLog(playBothWays({ players: 3, seed: 6, sides: 'B' }, 4).log);
    const future = Buffer.from(packed);
    future[1] = 99;
    expect(() => unpackLog(future)).toThrow(/format 99 is not known/);
    expect(() => unpackLog(packed.subarray(0, packed.length - 1))).toThrow(/truncated or malformed/);
    expect(() => unpackLog(Buffer.from([1, 2, 3]))).toThrow(/not a packed move log/);
  });
});
