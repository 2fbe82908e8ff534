/**
 * Stopping rules on a real lab (issue 18): a sweep whose cells stop once their question is
 * decided. The coordinator checks each cell after every round from the recorded results in play
 * order and feeds a decided cell no more; its games not yet queued are skipped. Where each cell
 * stopped is what a replay of the same games gives (replayStops over local plays): the decision
 * depends on the results alone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CellStopper, Sweep, parseSweepSpec, playGame, type GameSummary, type StopDecision, type StopRule } from '@wonderlab/shared';
import { api, startLab, waitForSweep, type TestLab } from './harness.js';
import { sprtMatchupSweep } from './sweep-fixtures.js';

/**
 * Every cell's decision from a sweep's results alone, fed in play order as the coordinator feeds
 * them: what the lab's stopped sweep must agree with. `result(k)` is game k's summary, or
 * undefined if it was not played.
 */
function replayStops(sweep: Sweep, rule: StopRule, result: (k: number) => GameSummary | undefined): { decision: StopDecision | undefined; games: number }[] {
  return sweep.cells.map((_, cell) => {
    const stopper = new CellStopper(sweep, cell, rule);
    while (!stopper.test.state.decision) {
      const next = stopper.nextGames(256);
      if (next.length === 0) break;
      const before = stopper.evaluated;
      stopper.feed(next.map(result));
      if (stopper.evaluated === before) break;
    }
    return { decision: stopper.test.state.decision, games: stopper.evaluated };
  });
}

let lab: TestLab;

beforeAll(async () => {
  lab = await startLab({ workers: 1, slots: 2 });
});
afterAll(async () => {
  await lab?.close();
});

async function run(spec: object): Promise<{ detail: any; sweep: Sweep; rule: StopRule }> {
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await waitForSweep(lab, created.body.id, 60_000);
  const detail = (await api(lab.url, `/api/sweeps/${created.body.id}`)).body;
  const parsed = parseSweepSpec(spec);
  return { detail, sweep: new Sweep(parsed), rule: parsed.stop! };
}

describe('a sweep with a stopping rule', () => {
  test('SPRT per cell: rulebased against random is decided H1, the reverse H0, each in a fraction of the games; the rest are skipped; a replay stops at the same games', async () => {
    const { detail, sweep, rule } = await run(sprtMatchupSweep('sprt'));
    expect(detail.status).toBe('done');
    expect(detail.batch).toBe(1);
    const byAgents = new Map(detail.cells.map((c: any) => [c.agents[0], c]));
    const strong = byAgents.get('rulebased') as any;
    const weak = byAgents.get('random') as any;
    expect(strong.stopped).toMatchObject({ rule: 'sprt', decision: 'H1' });
    expect(weak.stopped).toMatchObject({ rule: 'sprt', decision: 'H0' });
    for (const cell of [strong, weak]) {
      // Far fewer games than the fixed design's 400, and played games = the decision's plus those already queued.
      expect(cell.stopped.games).toBeLessThan(100);
      expect(cell.games).toBeGreaterThanOrEqual(cell.stopped.games);
      expect(cell.games).toBeLessThan(cell.stopped.games + 20);
      const [lower, upper] = cell.stopped.bounds;
      expect(cell.stopped.decision === 'H1' ? cell.stopped.value >= upper : cell.stopped.value <= lower).toBe(true);
      expect(cell.stopped.trace.at(-1)).toEqual({ games: cell.stopped.games, value: cell.stopped.value });
    }
    expect(detail.counts.skipped).toBeGreaterThan(0);
    expect(detail.counts.done + detail.counts.skipped).toBe(detail.counts.total);
    expect(detail.progress).toBe(1);

    // The games list says which were skipped.
    const states = (await api(lab.url, `/api/sweeps/${detail.id}/games?offset=0&limit=800`)).body.items.map((g: any) => g.state);
    expect(states.filter((x: string) => x === 'skipped')).toHaveLength(detail.counts.skipped);
    expect(states.filter((x: string) => x === 'done')).toHaveLength(detail.counts.done);

    // The same decisions at the same games from local plays of the same games.
    const replay = replayStops(sweep, rule, (k) => playGame(sweep.game(k)));
    for (const cell of detail.cells) expect({ decision: cell.stopped.decision, games: cell.stopped.games }).toEqual(replay[cell.index]);
  });

  test('the interval rule stops each cell once its win-rate interval is narrow enough; a bad rule is a 400 naming its field', async () => {
    const spec = { name: 'interval', players: 3, seats: ['rulebased', 'random', 'random'], deals: { count: 500 }, stop: { ciHalfWidth: 0.1, seat: 0 } };
    const { detail, sweep, rule } = await run(spec);
    const cell = detail.cells[0];
    expect(cell.stopped).toMatchObject({ rule: 'interval', decision: 'interval' });
    expect(cell.stopped.value).toBeLessThanOrEqual(0.1);
    expect(cell.stopped.games).toBeLessThan(200);
    expect(replayStops(sweep, rule, (k) => playGame(sweep.game(k)))[0]).toEqual({ decision: 'interval', games: cell.stopped.games });

    for (const [stop, field] of [
      [{ sprt: { seats: [0, 0], elo0: 0, elo1: 10 } }, 'stop.sprt.seats'],
      [{ sprt: { seats: [0, 1], elo0: 10, elo1: 0 } }, 'stop.sprt.elo1'],
      [{ ciHalfWidth: 0.1, seat: 5 }, 'stop.seat'],
      [{ ciHalfWidth: 0, seat: 0 }, 'stop'],
    ] as const) {
      const res = await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: { ...spec, stop } });
      expect(res.status).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toContain(field);
    }
  });
});
