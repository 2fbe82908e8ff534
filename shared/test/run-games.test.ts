/**
 * runGames (src/lab/threads/run-games.ts) on game threads: every plan's game delivered once, in plan
 * order, as playGame plays it, however many games are queued on each thread.
 *
 * The threads run the compiled game-thread (shared/dist): run `npx tsc -b` first.
 */
import { describe, expect, it } from 'vitest';
import { runGames } from '@wonderlab/shared';
import { Sweep, parseSweepSpec, playGame, withRecord, type GamePlan, type GameSummary, type SummaryWithRecord } from '../src/lab/index.js';

const sweep = new Sweep(parseSweepSpec({ name: 'run', players: 3, seats: ['random', 'rulebased', 'rulebased'], deals: { firstSeed: 5, count: 7 } }));
const plans: GamePlan[] = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
const strip = (s: GameSummary | SummaryWithRecord) => ({ ...s, players: s.players.map(({ decisionMs: _, ...rest }) => rest) });

describe('runGames on threads', () => {
  for (const [threads, count] of [
    [2, 7],
    [3, 2],
    [4, 5],
  ] as const) {
    it(`${count} plans on ${threads} threads: each once, in plan order, as playGame plays it`, async () => {
      const got: GameSummary[] = [];
      await runGames(plans.slice(0, count), { threads, onResult: (s) => got.push(s) });
      expect(got.map((s) => s.id)).toEqual(plans.slice(0, count).map((p) => p.id));
      got.forEach((s, i) => expect(strip(s)).toEqual(strip(playGame(plans[i]))));
    });
  }

  for (const threads of [1, 2]) {
    it(`records on ${threads} thread(s): 'log' delivers each game's move log, 'full' its full record in the log's place`, async () => {
      const logs: (GameSummary | SummaryWithRecord)[] = [];
      const full: (GameSummary | SummaryWithRecord)[] = [];
      await runGames(plans.slice(0, 3), { threads, record: 'log', onResult: (s) => logs.push(s) });
      await runGames(plans.slice(0, 3), { threads, record: 'full', onResult: (s) => full.push(s) });
      plans.slice(0, 3).forEach((plan, i) => {
        const local = playGame(plan, { record: true });
        expect(strip(logs[i])).toEqual(strip(local));
        expect('record' in full[i]).toBe(true);
        expect('log' in full[i]).toBe(false);
        expect(strip(full[i])).toEqual(strip(withRecord(local)));
      });
    });
  }
});
