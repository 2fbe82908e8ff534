/**
 * A racing tune on a real lab (issue 61): a sweep whose `tune` makes its cells arms of a race. The
 * feeder reads each arm's games in play order, drops an arm that falls behind (its games are never
 * played), decides, and makes the recommendation's confirmation — a sweep of its own, on held-out
 * deals under an SPRT — which the tune's detail reports beside the recommendation. Bad tunes are
 * 400s naming the field.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await startLab({ workers: 1, slots: 2 });
});
afterAll(async () => {
  await lab?.close();
});

/** Two arms far apart against two random players: a search of 60 iterations, and of 1. */
const RACE = {
  name: 'race: iterations',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: [1, 60], depth: 3 } }, 'random', 'random'],
  seating: 'rotate',
  deals: { firstSeed: 100, count: 60 },
  tune: { method: 'racing', seat: 0, delta: 0.2, epsilon: 0.45, roundDeals: 5, confirm: { firstSeed: 50_000, deals: 8, elo0: 0, elo1: 100 } },
};

describe('a racing tune', () => {
  test('bad tunes are 400s naming the field', async () => {
    const refused = async (change: Record<string, unknown>) => (await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: { ...RACE, ...change } })).body;
    expect((await refused({ seats: ['mcts(it=5)', 'random', 'random'] })).field).toBe('tune');
    expect((await refused({ tune: { ...RACE.tune, seat: 5 } })).field).toBe('tune.seat');
    expect((await refused({ tune: { ...RACE.tune, against: 0 } })).field).toBe('tune.against');
    expect((await refused({ stop: { ciHalfWidth: 0.1, seat: 0 } })).field).toBe('stop');
    expect((await refused({ seats: [{ agent: 'mcts', params: { it: [1, 60] } }, { agent: 'mcts', params: { it: [2, 3] } }, 'random'] })).field).toBe('seats.1');
    expect((await refused({ tune: { ...RACE.tune, confirm: { firstSeed: 120, deals: 10 } } })).field).toBe('tune.confirm.firstSeed');
    expect((await refused({ tune: { ...RACE.tune, method: 'bisection' } })).field).toBe('tune.method');
  });

  test('drops the weak arm before its deals are spent, recommends the strong one, and confirms it on held-out deals', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: RACE });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const done = await waitForSweep(lab, id, 120_000);
    const race = done.tune.race;
    expect(race.decided).toMatchObject({ agent: 'mcts(it=60,depth=3)' });
    expect(done.tune.recommendation).toBe('mcts(it=60,depth=3)');
    // The race stopped before the sweep's 360 games: the rest were skipped, never played.
    expect(done.counts.done).toBeLessThan(done.counts.total);
    expect(done.counts.done + done.counts.skipped).toBe(done.counts.total);
    const weak = race.arms.find((a: any) => a.agent === 'mcts(it=1,depth=3)');
    expect(weak.mean).toBeLessThan(race.arms.find((a: any) => a.agent === 'mcts(it=60,depth=3)').mean);
    expect(done.cells.map((c: any) => c.stopped?.decision).sort()).toEqual(race.decided.by === 'elimination' ? ['out', 'won'] : ['raced', 'won']);

    // The confirmation: the recommendation against the seat's own base agent, seats swapped, an SPRT.
    const confirmation = await waitFor(async () => (await api(lab.url, `/api/sweeps/${id}`)).body.tune.confirmation?.sweep, 'the confirmation to be made', 30_000);
    const c = (await api(lab.url, `/api/sweeps/${confirmation}`)).body;
    expect(c.confirms).toBe(id);
    expect(c.spec).toMatchObject({ seats: ['mcts(it=60,depth=3)', 'mcts(depth=3)', 'random'], seating: 'swap', swapSeats: [0, 1], deals: { firstSeed: 50_000, count: 8 }, stop: { sprt: { seats: [0, 1], elo0: 0, elo1: 100 } } });
    await waitForSweep(lab, confirmation, 120_000);
    // The feeder saves the confirmation's last stopping look in its round after the sweep ends.
    const reported = await waitFor(async () => {
      const c = (await api(lab.url, `/api/sweeps/${id}`)).body.tune.confirmation;
      return c.decision !== null ? c : undefined;
    }, "the confirmation's decision", 10_000);
    expect(reported).toMatchObject({ sweep: confirmation, status: 'done' });
    expect(reported.games).toBeGreaterThan(0);
    expect(reported.decision).toMatch(/^(H0|H1|max)$/);
    expect(reported.score.outcomes).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
