/**
 * The lab's ladder (GET /api/ratings, issue 18) on a real lab: every configuration of every sweep
 * by its canonical spec, the rule-based player at 0, and a batch Plackett–Luce fit equal to one
 * made from local plays of the same games, every seat counted when a configuration sits twice
 * (the thesis's design: one MCTS against two rulebased). There are no online ratings (issue 43).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Sweep, configOf, eloRatings, finishingOrder, fitPlackettLuce, parseFinishingOrder, parseSweepSpec, placementOf, playGame, type Ranking } from '@wonderlab/shared';
import { api, startLab, waitForSweep, type TestLab } from './harness.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await startLab({ workers: 1, slots: 2 });
});
afterAll(async () => {
  await lab?.close();
});

const SPECS = [
  { name: 'ladder-a', players: 3, seats: ['rulebased', 'random', 'random'], deals: { count: 20 }, seating: 'rotate' },
  { name: 'ladder-b', players: 3, seats: ['mcts(it=20,depth=2)', 'rulebased', 'random'], deals: { count: 10 }, seating: 'rotate' },
];

test('one ladder over every sweep: canonical configurations, rulebased at 0, the batch fit of the same games played locally, no online ratings', async () => {
  for (const spec of SPECS) {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
    expect(created.status).toBe(201);
    await waitForSweep(lab, created.body.id, 60_000);
  }
  const res = await api(lab.url, '/api/ratings');
  expect(res.status).toBe(200);
  const ladder = res.body;

  // The same games played here, their finishing orders in canonical configurations.
  const configs = new Set<string>();
  const orders: string[][][] = [];
  for (const input of SPECS) {
    const sweep = new Sweep(parseSweepSpec(input));
    for (let k = 0; k < sweep.size; k++) {
      const game = playGame(sweep.game(k));
      const at = placementOf(sweep, k);
      const groups = parseFinishingOrder(finishingOrder(game, at.labels)).map((g) => g.map((L) => configOf(at.labels[L])));
      groups.flat().forEach((c) => configs.add(c));
      orders.push(groups);
    }
  }
  const names = [...configs].sort();
  expect(ladder.batch.ratings.map((r: any) => r.config).sort()).toEqual(names);
  expect(ladder.games).toBe(orders.length);
  expect(ladder.anchor).toBe('rulebased');
  const rankings: Ranking[] = orders.map((groups) => ({ groups: groups.map((g) => g.map((c) => names.indexOf(c))), count: 1 }));
  const local = eloRatings(names, fitPlackettLuce(names.length, rankings), orders.length, 'rulebased');
  for (const r of ladder.batch.ratings) {
    const mine = local.ratings.find((x) => x.config === r.config)!;
    expect(r.elo, r.config).toBeCloseTo(mine.elo, 6);
    expect(r.high - r.low, r.config).toBeCloseTo(mine.high - mine.low, 6);
  }
  expect(ladder.batch.ratings.find((r: any) => r.config === 'rulebased').elo).toBe(0);
  // Random is clearly below the rule-based player.
  const random = ladder.batch.ratings.find((r: any) => r.config === 'random');
  expect(random.high).toBeLessThan(0);
  // The online ratings depended on the order counts were fed and kept one seat of a configuration
  // that sat twice: they contradicted the fit, and are gone.
  expect(ladder).not.toHaveProperty('online');

  // Another anchor, and a bad one.
  expect((await api(lab.url, '/api/ratings?anchor=random')).body.batch.ratings.find((r: any) => r.config === 'random').elo).toBe(0);
  const bad = await api(lab.url, '/api/ratings?anchor=nope:1');
  expect(bad.status).toBe(400);
  expect(bad.body.field).toBe('query.anchor');
});
