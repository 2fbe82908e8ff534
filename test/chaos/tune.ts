/**
 * The chaos suite's phase for a tune (issue 61): an SPSA tune runs while the coordinator and a
 * worker are SIGKILLed and Redis is SIGKILLed and restarted. Its steps are sweeps the coordinator
 * makes from the results, so the checks are the tune's: every step made once (no step sweep
 * beyond the budget, none twice), every step's games stored once and equal to the same games
 * played here, every step's result applied once, and the result applied the one its stored games
 * give — so the trajectory the lab reports is the one its recorded games imply.
 */
import { parseSweepSpec, playGame, stepResult, steppedTune, type GameSummary } from '@wonderlab/shared';
import { SweepStore, closeRedis, connectRedis, stepSweepId, type SweepMeta } from '@wonderlab/shared/store';
import { request, sleep, waitUntil, type LabProcess, type PrivateRedis } from '../support/processes.js';
import type { DoorsContext } from './doors.js';

const STEPS = 40;
const TUNE = {
  name: 'chaos tune',
  players: 3,
  seats: ['mcts(it=10,depth=2)', 'random', 'random'],
  deals: { firstSeed: 5000, count: 1 },
  tune: { method: 'spsa', params: [{ key: 'c', min: 0.1, max: 2, scale: 'log' }, { key: 'it', min: 4, max: 20 }], steps: STEPS, inFlight: 4, rEnd: 0.3 },
};

export async function tuneUnderFaults(doors: DoorsContext, redis: PrivateRedis, prefix: string): Promise<void> {
  const { log, check, kill, token } = doors;
  const store = new SweepStore(connectRedis(redis.url).on('error', () => {}), prefix);
  const auth = { authorization: `Bearer ${token}` };
  let { p: coord, url } = await doors.coordinator();
  const workers: LabProcess[] = [doors.worker(), doors.worker()];
  try {
    const created = await request(`${url}/api/sweeps`, { method: 'POST', json: TUNE, headers: auth });
    if (created.status !== 201) throw new Error(`the tune was not created: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    log(`tune ${id}: SPSA, ${STEPS} steps of 2 games, 4 in flight, 2 workers`);
    const applied = async () => (await store.reads.tuneSteps(id).catch(() => undefined))?.applied.length ?? 0;
    const restartCoordinator = async () => {
      await kill(coord);
      ({ p: coord, url } = await doors.coordinator());
    };
    const events: { at: number; name: string; run: () => Promise<void> }[] = [
      { at: 8, name: 'SIGKILL the coordinator', run: restartCoordinator },
      {
        at: 16,
        name: 'SIGKILL a worker',
        run: async () => {
          await kill(workers.shift()!);
          workers.push(doors.worker());
        },
      },
      {
        at: 24,
        name: 'restart Redis (SIGKILL)',
        run: async () => {
          await redis.stop('SIGKILL');
          await sleep(1500);
          await redis.start();
        },
      },
      { at: 30, name: 'SIGKILL the coordinator', run: restartCoordinator },
    ];
    for (const e of events) {
      await waitUntil(async () => ((await applied()) >= e.at ? true : undefined), `${e.at} steps applied`, 300_000, 100);
      const at = await applied();
      await e.run();
      log(`${e.name} at ${at} steps applied`);
    }
    await waitUntil(async () => ((await store.reads.meta(id).catch(() => undefined))?.status === 'done' ? true : undefined), 'the tune to finish', 300_000, 200);

    const spec = parseSweepSpec(TUNE);
    const t = steppedTune(spec)!;
    const { steps, applied: results } = await store.reads.tuneSteps(id);
    const ks = results.map((r) => r.k).sort((a, b) => a - b);
    check(steps.size === STEPS && ks.length === STEPS && ks.every((k, i) => k === i), `tune: every step proposed and applied once (${steps.size} proposed, ${ks.length} applied, distinct ${new Set(ks).size})`);
    check((await store.reads.meta(stepSweepId(id, STEPS))) === undefined, 'tune: no step sweep beyond the budget');
    let lost = 0;
    let twice = 0;
    let differ = 0;
    let wrongResult = 0;
    for (const { k, value } of results) {
      const stepId = stepSweepId(id, k);
      const meta = (await store.reads.meta(stepId)) as SweepMeta;
      const { sweep } = (await store.reads.load(stepId))!;
      const plans = Array.from({ length: sweep.size }, (_, i) => sweep.game(i));
      const stored = await store.reads.results(stepId, plans.map((p) => p.id));
      lost += stored.filter((g) => !g).length;
      twice += Math.max(0, meta.done - (await store.redis.hlen(store.keys.sweep(stepId).results)));
      const strip = (g: GameSummary) => JSON.stringify({ ...g, record: undefined, players: g.players.map((p) => ({ ...p, decisionMs: 0 })) });
      stored.forEach((g, i) => {
        if (g && strip(g) !== strip(playGame(plans[i]))) differ++;
      });
      const games = stored.filter((g): g is GameSummary => g !== undefined);
      const expected = stepResult(spec, t, games, games.map((g) => sweep.orders[sweep.game(g.index).seating])) ?? 0;
      if (expected !== value) wrongResult++;
    }
    check(lost === 0, `tune: 0 step games lost (${lost})`);
    check(twice === 0, `tune: 0 step games counted twice (${twice})`);
    check(differ === 0, `tune: 0 step games differ from a local play (${differ})`);
    check(wrongResult === 0, `tune: every applied result is what its step's stored games give (${wrongResult} not)`);
    const detail = (await request(`${url}/api/sweeps/${id}`)).body;
    check(detail.tune?.trajectory?.length === STEPS && detail.tune.final === true, `tune: the detail reports ${STEPS} steps of trajectory and a final recommendation (${detail.tune?.recommendation})`);
  } finally {
    await closeRedis(store.redis);
    for (const w of workers) await kill(w);
    await kill(coord);
  }
}
