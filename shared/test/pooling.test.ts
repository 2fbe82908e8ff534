/**
 * Statistics over several cells (src/lab/results/pooling.ts, sweep-statistics.ts) against the same numbers
 * computed directly from the raw game summaries: an agent pooled over cells, a swept parameter's
 * points, the matchup matrix. Pooled means are weighted by what they count (a time per decision by
 * decisions, iterations per second by thinking time), not by games.
 */
import { quantile, sampleStandardDeviation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { SCORE_CATEGORIES } from '../src/engine/index.js';
import { AggregateFold, Sweep, Z95, parseSweepSpec, placementOf, playGame, sweepStatistics, type GameSummary, type PlayerSummary, type SweepSpecInput } from '../src/lab/index.js';

function played(input: SweepSpecInput): { sweep: Sweep; games: GameSummary[] } {
  const sweep = new Sweep(parseSweepSpec(input));
  return { sweep, games: Array.from({ length: sweep.size }, (_, k) => playGame(sweep.game(k))) };
}

function statsOf(sweep: Sweep, games: readonly GameSummary[]) {
  const fold = new AggregateFold();
  for (const g of games) fold.add(g, placementOf(sweep, g.index));
  return sweepStatistics(fold.fields, sweep);
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A pooled agent's numbers straight from its seats in the games. */
function raw(seats: readonly PlayerSummary[], games: readonly GameSummary[]) {
  const vps = seats.map((p) => p.score.total);
  const sorted = [...vps].sort((a, b) => a - b);
  const ms = seats.reduce((s, p) => s + p.decisionMs * p.decisions, 0);
  const decisions = seats.reduce((s, p) => s + p.decisions, 0);
  const tied = seats.filter((p) => {
    const g = games.find((x) => x.players.includes(p))!;
    const best = Math.max(...g.players.map((q) => q.score.total));
    return !p.winner && p.score.total === best;
  }).length;
  return {
    games: seats.length,
    wins: seats.filter((p) => p.winner).length,
    ties: tied,
    mean: mean(vps),
    sd: sampleStandardDeviation(vps),
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    decisionMs: ms / decisions,
    iterationsPerSecond: ms > 0 ? seats.reduce((s, p) => s + p.iterations, 0) / (ms / 1000) : 0,
    stages: mean(seats.map((p) => p.stages)),
    score: Object.fromEntries(SCORE_CATEGORIES.map((c) => [c, mean(seats.map((p) => p.score[c]))])),
  };
}

describe('pooled over cells', () => {
  const matchup = played({
    name: 'pool',
    players: 3,
    seats: ['random', 'mcts(it=5)', 'rulebased'],
    matchup: { specs: ['random', 'mcts(it=5)', 'mcts(it=8)'], seats: [0, 1] },
    deals: { count: 4 },
  });

  it('every agent over every cell it plays in: counts, VP quantiles, time per decision and iterations per second from the raw games', () => {
    const stats = statsOf(matchup.sweep, matchup.games);
    expect(stats.pooled.map((p) => p.label)).toEqual(['random', 'mcts(it=5)', 'rulebased', 'mcts(it=8)']);
    for (const p of stats.pooled) {
      const seats = matchup.games.flatMap((g) => g.players.filter((q) => q.agent === p.label));
      const r = raw(seats, matchup.games);
      expect(p.cells).toBe(matchup.sweep.cells.filter((c) => c.agents.includes(p.label)).length);
      expect(p.games).toBe(r.games);
      expect(p.wins).toBe(r.wins);
      expect(p.ties).toBe(r.ties);
      expect(p.vp.mean).toBeCloseTo(r.mean, 9);
      expect(p.vp.sd).toBeCloseTo(r.sd, 9);
      expect([p.vp.q1, p.vp.median, p.vp.q3]).toEqual([r.q1, r.median, r.q3]);
      expect(p.vpMeanHalfWidth).toBeCloseTo((Z95 * r.sd) / Math.sqrt(r.games), 9);
      expect(p.decisionMs).toBeCloseTo(r.decisionMs, 9);
      expect(p.iterationsPerSecond).toBeCloseTo(r.iterationsPerSecond, 6);
      expect(p.meanStages).toBeCloseTo(r.stages, 9);
      for (const c of SCORE_CATEGORIES) expect(p.score[c]).toBeCloseTo(r.score[c], 9);
    }
  });

  it('weights a time per decision by decisions and iterations per second by thinking time, not by games', () => {
    // Two cells whose rule-based seats take 10 decisions of 1 ms and 30 decisions of 3 ms per game:
    // 2.5 ms per decision over both, where averaging the cells' means by games gives 2.
    const { sweep, games } = played({ name: 'weights', players: 3, seats: [{ agent: 'mcts', params: { it: [4, 6] } }, 'rulebased', 'random'], deals: { count: 3 } });
    const changed = games.map((g) => {
      const cell = Math.floor(g.index / sweep.gamesPerCell);
      return {
        ...g,
        players: g.players.map((p) => (p.agent === 'rulebased' ? { ...p, decisions: cell === 0 ? 10 : 30, decisionMs: cell === 0 ? 1 : 3, iterations: cell === 0 ? 100 : 900 } : p)),
      };
    });
    const stats = statsOf(sweep, changed);
    const rb = stats.pooled.find((p) => p.label === 'rulebased')!;
    expect(rb.decisionMs).toBeCloseTo(2.5, 12);
    // 3 games × 100 iterations over 30 ms, 3 games × 900 over 270 ms: 3000 / 0.3 s.
    expect(rb.iterationsPerSecond).toBeCloseTo(10_000, 6);
    const perCell = stats.cells.map((c) => c.labels.find((l) => l.label === 'rulebased')!);
    expect(perCell.map((l) => l.decisionMs)).toEqual([1, 3]);
    const byGames = (perCell[0].decisionMs * perCell[0].games + perCell[1].decisionMs * perCell[1].games) / (perCell[0].games + perCell[1].games);
    expect(byGames).toBeCloseTo(2, 12);
  });

  it("a swept parameter's points: the swept seat's agent at each value, with its n and intervals", () => {
    const { sweep, games } = played({ name: 'param', players: 3, seats: [{ agent: 'mcts', params: { it: [4, 6] } }, 'rulebased', 'rulebased'], deals: { count: 5 }, seating: 'rotate' });
    const stats = statsOf(sweep, games);
    expect(stats.parameters.map((s) => [s.key, s.seat])).toEqual([['seats.0.it', 0]]);
    const points = stats.parameters[0].points;
    expect(points.map((p) => p.value)).toEqual([4, 6]);
    for (const p of points) {
      const seats = games.flatMap((g) => g.players.filter((q) => q.agent === `mcts(it=${p.value})`));
      const r = raw(seats, games);
      expect(p.cells).toBe(1);
      expect([p.games, p.wins]).toEqual([r.games, r.wins]);
      expect(p.winRate).toBe(r.wins / r.games);
      expect(p.wilson.low).toBeLessThanOrEqual(p.winRate);
      expect(p.wilson.high).toBeGreaterThanOrEqual(p.winRate);
      expect(p.meanVp).toBeCloseTo(r.mean, 9);
      expect(p.meanVpHalfWidth).toBeCloseTo((Z95 * r.sd) / Math.sqrt(r.games), 9);
      expect(p.meanVpInterval.low).toBeCloseTo(r.mean - (Z95 * r.sd) / Math.sqrt(r.games), 9);
      expect(p.meanVpInterval.high).toBeCloseTo(r.mean + (Z95 * r.sd) / Math.sqrt(r.games), 9);
    }
  });

  it('a grid of two swept parameters: one line per value of the other, each point from its own cell, never an average', () => {
    const { sweep, games } = played({ name: 'grid', players: 3, seats: [{ agent: 'mcts', params: { it: [4, 6], c: [0.2, 1.5] } }, 'rulebased', 'rulebased'], deals: { count: 3 } });
    const stats = statsOf(sweep, games);
    const it = stats.parameters.find((s) => s.key === 'seats.0.it')!;
    expect([it.name, it.numeric]).toEqual(['iterations', true]);
    expect(it.meaning).toMatch(/iterations per decision/);
    expect(stats.parameters.find((s) => s.key === 'seats.0.c')!.name).toBe('exploration constant C');
    expect(it.lines!.map((l) => l.label)).toEqual(['exploration constant C = 0.2', 'exploration constant C = 1.5']);
    for (const line of it.lines!) {
      expect(line.points.map((p) => p.value)).toEqual([4, 6]);
      for (const p of line.points) {
        const agent = `mcts(it=${p.value},c=${line.given['seats.0.c']})`;
        const seats = games.flatMap((g) => g.players.filter((q) => q.agent === agent));
        expect(seats.length).toBeGreaterThan(0);
        expect(p.cells).toBe(1);
        expect([p.games, p.wins]).toEqual([seats.length, seats.filter((q) => q.winner).length]);
      }
    }
    // The pooled points remain, over both values of C.
    expect(it.points.map((p) => p.games)).toEqual(it.lines![0].points.map((p, i) => p.games + it.lines![1].points[i].games));
    // One swept parameter: no lines.
    const single = played({ name: 'single', players: 3, seats: [{ agent: 'mcts', params: { it: [4, 6] } }, 'rulebased', 'rulebased'], deals: { count: 1 } });
    expect(statsOf(single.sweep, single.games).parameters[0].lines).toBeUndefined();
  });

  it("the matchup matrix: the row agent's wins in its seat against the column agent", () => {
    const stats = statsOf(matchup.sweep, matchup.games);
    const m = stats.matchup!;
    expect(m.seats).toEqual([0, 1]);
    m.specs.forEach((x, i) =>
      m.specs.forEach((y, j) => {
        const cell = m.rows[i][j];
        if (i === j) return expect(cell).toBeNull();
        const these = matchup.games.filter((g) => g.players[0].agent === x && g.players[1].agent === y);
        expect(cell!.games).toBe(these.length);
        expect(cell!.wins).toBe(these.filter((g) => g.players[0].winner).length);
        expect(cell!.meanVp).toBeCloseTo(mean(these.map((g) => g.players[0].score.total)), 9);
      }),
    );
    // No matchup, no matrix.
    expect(statsOf(matchup.sweep, []).matchup).toBeDefined();
    const plain = played({ name: 'plain', players: 3, seats: ['random', 'random', 'rulebased'], deals: { count: 1 } });
    expect(statsOf(plain.sweep, plain.games).matchup).toBeUndefined();
  });
});
