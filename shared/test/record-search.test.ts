/**
 * Game records with the MCTS decisions' search statistics (RecordedMove.search): on every MCTS
 * move that had a choice, on no other; bounded and sorted; the game played is the one played
 * without a record; records with them and records from before them both replay.
 */
import { describe, expect, it } from 'vitest';
import { decodeMove, legalMoves, newGame, recordFromLog, replay, step, timeline, type GameRecord, type RecordedMove } from '../src/engine/index.js';
import { playGame, type GamePlan, type GameSummary } from '../src/lab/index.js';

const AGENTS = ['mcts(it=30,det=is)', 'rulebased', 'mcts(it=24,det=pimc,worlds=3)'];

function plan(seed: number, agents = AGENTS): GamePlan {
  return { id: `search-${seed}`, index: 0, seed, set: -1, deal: 0, seating: 0, agents, sides: 'random', open: false };
}

const isMcts = (spec: string) => spec.startsWith('mcts');
const sameMove = (a: RecordedMove, b: ReturnType<typeof decodeMove>) =>
  a.card === b.card && a.age === b.age && a.action === b.action && a.payLeft === b.payLeft && a.payRight === b.payRight;

/** Per recorded move, how many legal moves its seat had (every agent here plays cheapest payments). */
function choicesPerMove(record: GameRecord): Map<RecordedMove, number> {
  const s = newGame(record.config);
  const moves = new Int32Array(s.n);
  const out = new Map<RecordedMove, number>();
  for (const rec of record.steps) {
    for (const m of rec.moves) {
      const legal = legalMoves(s, m.seat, 'cheapest');
      out.set(m, legal.length);
      moves[m.seat] = legal.find((x) => sameMove(m, decodeMove(x)))!;
    }
    step(s, moves);
  }
  return out;
}

const withoutTimes = (g: GameSummary) => ({ ...g, players: g.players.map((p) => ({ ...p, decisionMs: 0 })) });

describe('records with search statistics', () => {
  it('every MCTS move with a choice carries its search, no other move does', () => {
    for (const seed of [1, 2]) {
      const record = recordFromLog(playGame(plan(seed), { record: true }).log!);
      const choices = choicesPerMove(record);
      let searched = 0;
      for (const [i, rec] of record.steps.entries()) {
        for (const m of rec.moves) {
          const where = `seed ${seed}, step ${i}, seat ${m.seat}`;
          const expected = isMcts(AGENTS[m.seat]) && choices.get(m)! > 1;
          expect(m.search !== undefined, where).toBe(expected);
          if (m.search) searched++;
        }
      }
      expect(searched).toBeGreaterThan(30);
    }
  });

  it('a search lists at most 8 moves, most visited first, visits within the iterations, the move played marked by being among them', () => {
    const record = recordFromLog(playGame(plan(3), { record: true }).log!);
    for (const [i, rec] of record.steps.entries()) {
      for (const m of rec.moves) {
        if (!m.search) continue;
        const where = `step ${i}, seat ${m.seat}`;
        const { iterations, ms, moves } = m.search;
        expect(iterations, where).toBeGreaterThan(0);
        expect(ms, where).toBeGreaterThanOrEqual(0);
        expect(moves.length, where).toBeGreaterThan(0);
        expect(moves.length, where).toBeLessThanOrEqual(8);
        const visits = moves.map((x) => x.visits);
        expect(visits, where).toEqual([...visits].sort((a, b) => b - a));
        expect(visits.reduce((t, v) => t + v, 0), where).toBeLessThanOrEqual(iterations);
        for (const x of moves) {
          expect(x.value, where).toBeGreaterThanOrEqual(0);
          expect(x.value, where).toBeLessThanOrEqual(1);
          expect(Object.keys(x.move).sort(), where).toEqual(['action', 'age', 'card', 'payLeft', 'payRight']);
        }
        expect(moves.filter((x) => sameMove(m, x.move)), `${where}: the move played`).toHaveLength(1);
        // det=pimc (seat 2) says how its trees voted.
        expect(moves.every((x) => x.votes !== undefined), where).toBe(m.seat === 2);
      }
    }
  });

  it('a recorded game is the game played without a record, and its record replays', () => {
    for (const seed of [4, 5]) {
      const plain = playGame(plan(seed));
      const { log, ...recorded } = playGame(plan(seed), { record: true });
      expect(withoutTimes(recorded)).toEqual(withoutTimes(plain));
      const json: GameRecord = JSON.parse(JSON.stringify(recordFromLog(log!)));
      expect(replay(json).differences).toEqual([]);
    }
  });

  it('the timeline passes each move’s search through; a record without searches (older ones) still replays and times', () => {
    const record = recordFromLog(playGame(plan(6), { record: true }).log!);
    const steps = timeline(record);
    steps.forEach((s, i) => expect(s.moves).toEqual(record.steps[i].moves));
    const old: GameRecord = JSON.parse(JSON.stringify(record));
    for (const rec of old.steps) for (const m of rec.moves) delete m.search;
    expect(replay(old).differences).toEqual([]);
    const oldSteps = timeline(old);
    expect(oldSteps.map((s) => s.scores)).toEqual(steps.map((s) => s.scores));
    expect(oldSteps.flatMap((s) => s.moves).some((m) => 'search' in m)).toBe(false);
  });
});

describe('a timeline from one seat\'s point of view', () => {
  it('shows that seat its hand and searches, the others as sizes, known candidates and face-down cards', () => {
    const record = recordFromLog(playGame(plan(4), { record: true }).log!);
    const all = timeline(record);
    for (const viewer of [0, 2]) {
      const seen = timeline(record, viewer);
      expect(seen).toHaveLength(all.length);
      let candidatesKnown = 0;
      seen.forEach((st, i) => {
        const full = all[i];
        for (const b of st.before) {
          const truth = full.before[b.seat];
          if (b.seat === viewer) {
            expect(b).toEqual(truth);
            continue;
          }
          expect(b.hand).toEqual([]);
          expect(b.hidden!.size).toBe(truth.hand.length);
          // What the viewer knows a hand may hold always contains what it holds.
          if (b.hidden!.candidates) {
            candidatesKnown++;
            const left = [...b.hidden!.candidates];
            for (const card of truth.hand) {
              expect(left).toContain(card);
              left.splice(left.indexOf(card), 1);
            }
          }
          expect({ ...b, hand: truth.hand, hidden: undefined }).toEqual({ ...truth, hidden: undefined });
        }
        st.moves.forEach((m, k) => {
          const t = full.moves[k];
          if (m.seat === viewer) return expect(m).toEqual(t);
          expect(m.search).toBeUndefined();
          expect(m.card).toBe(t.action === 'stage' || t.action === 'discard' ? '' : t.card);
        });
        expect(st.scores).toEqual(full.scores);
      });
      // From turn 2 on the viewer has seen the hand it passed.
      expect(candidatesKnown).toBeGreaterThan(20);
    }
  });
});
