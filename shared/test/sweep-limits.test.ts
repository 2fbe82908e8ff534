/**
 * A lab's limits on sweeps: the grid's size is multiplied, never expanded, so a grid of millions
 * of cells is refused without listing it; per-move budgets and the estimated cost are checked per
 * agent; fixed wonder sets are checked board by board. Every refusal names the field (or the
 * product), the value and the limit.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Sweep, SweepSpecError, checkSweepSpec, decisionSeconds, expectedCpuSeconds, gameSeconds, parseSweepSpec, sweepSize, type SweepLimits } from '../src/lab/index.js';
import { mctsDefaults } from '../src/agents/index.js';

const PRESETS = fileURLToPath(new URL('../../presets', import.meta.url));

/** The coordinator's defaults (services/coordinator/src/config.ts). */
const DEFAULTS: SweepLimits = { maxCells: 1000, maxGames: 5_000_000, maxMoveIterations: 100_000, maxMoveSeconds: 60, maxGameSeconds: 600, maxCpuHours: 1000 };

const base = { name: 'limits', players: 3, seats: ['mcts:50', 'rulebased', 'rulebased'], deals: { count: 10 } };

function refusal(input: unknown, limits: SweepLimits = DEFAULTS): SweepSpecError {
  try {
    checkSweepSpec(input, limits);
  } catch (err) {
    if (err instanceof SweepSpecError) return err;
    throw err;
  }
  throw new Error('expected the spec to be refused');
}

const values = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('size: cells and games', () => {
  it('a 2000 × 2000 grid is refused on (cells), naming both lists, the product and MAX_CELLS', () => {
    const spec = { ...base, seats: [{ agent: 'mcts', params: { it: values(2000, 1), depth: values(2000, 1).map((d) => (d % 100) + 1), c: values(2000).map((x) => x / 100) } }, 'random', 'random'] };
    const err = refusal(spec);
    expect(err.field).toBe('(cells)');
    expect(err.message).toContain('2,000 values (seats.0.params.it) × 2,000 values (seats.0.params.depth) × 2,000 values (seats.0.params.c) = 8,000,000,000 cells');
    expect(err.message).toContain("limit of 1,000 cells per sweep (MAX_CELLS)");
  });

  it('one cell too many is refused; the limit itself is accepted', () => {
    const at = { ...base, seats: [{ agent: 'mcts', params: { it: values(10, 10), c: values(10).map((x) => x / 10) } }, 'random', 'random'] };
    expect(checkSweepSpec(at, { ...DEFAULTS, maxCells: 100 }).size.cells).toBe(100);
    expect(refusal(at, { ...DEFAULTS, maxCells: 99 }).field).toBe('(cells)');
  });

  it('a matchup counts its ordered pairs (or the listed pairs)', () => {
    const spec = { ...base, seats: ['mcts:5', 'mcts:5', 'rulebased'], matchup: { specs: ['mcts:5', 'mcts:6', 'mcts:7', 'mcts:8'], seats: [0, 1] } };
    expect(refusal(spec, { ...DEFAULTS, maxCells: 11 }).message).toContain('12 ordered pairs (matchup.specs) = 12 cells');
    expect(checkSweepSpec({ ...spec, matchup: { ...spec.matchup, pairs: [[0, 1], [1, 2]] } }, { ...DEFAULTS, maxCells: 2 }).size.cells).toBe(2);
  });

  it('too many games is refused on (games), naming the product, not deals.count', () => {
    const spec = { ...base, seats: [{ agent: 'mcts', params: { it: [10, 20] } }, 'random', 'random'], wonders: { mode: 'thesis' }, deals: { count: 50 }, seating: 'permute' };
    const err = refusal(spec, { ...DEFAULTS, maxGames: 10_000 });
    expect(err.field).toBe('(games)');
    expect(err.message).toBe('(games): 2 cells × 21 wonder sets (wonders) × 50 deals (deals.count) × 6 seat orders (seating) = 12,600 games, over this lab\'s limit of 10,000 games per sweep (MAX_GAMES)');
    expect(sweepSize(parseSweepSpec(spec)).total).toBe(new Sweep(parseSweepSpec(spec)).size);
  });
});

describe('per-move budget', () => {
  it('iterations per move count the largest Age scale, and name seats.N.params.it for an object seat', () => {
    const object = refusal({ ...base, seats: [{ agent: 'mcts', params: { it: [1000, 60_000] } }, 'random', 'random'] });
    expect(object.field).toBe('seats.0.params.it');
    expect(object.message).toContain("agent 'mcts(it=60000)': it=60,000 × scale 2 = 120,000 iterations per move, over this lab's limit of 100,000 (MAX_MOVE_ITERATIONS)");
    const text = refusal({ ...base, seats: ['random', 'mcts(it=10000000,time=86400)', 'random'] });
    expect(text.field).toBe('seats.1');
    expect(text.message).toContain('10,000,000');
    const scaled = refusal({ ...base, seats: [{ agent: 'mcts', params: { it: 40_000, scale: '1/1/3' } }, 'random', 'random'] });
    expect(scaled.field).toBe('seats.0.params.it');
    expect(scaled.message).toContain('× scale 3 = 120,000');
    const matchup = refusal({ ...base, seats: ['mcts:5', 'mcts:5', 'rulebased'], matchup: { specs: ['mcts:5', 'mcts:90000'], seats: [0, 1] } });
    expect(matchup.field).toBe('matchup.specs.1');
  });

  it('a time cap over MAX_MOVE_SECONDS is refused; time=0 (no cap) is allowed', () => {
    const err = refusal({ ...base, seats: [{ agent: 'mcts', params: { time: 86_400 } }, 'random', 'random'] });
    expect(err.field).toBe('seats.0.params.time');
    expect(err.message).toContain("time=86400 seconds per move, over this lab's limit of 60 (MAX_MOVE_SECONDS)");
    expect(() => checkSweepSpec({ ...base, seats: ['mcts:100,0,100', 'random', 'random'] }, DEFAULTS)).not.toThrow();
  });
});

describe('estimated cost', () => {
  it('grows with iterations and players, is capped by the time limit, and is zero-ish without MCTS', () => {
    const p = mctsDefaults('mcts');
    const at = (over: Partial<typeof p>, players = 3) => decisionSeconds({ ...p, ...over }, players);
    expect(at({ it: 1000, time: 0 })[0]).toBeGreaterThan(at({ it: 100, time: 0 })[0] * 9);
    expect(at({ it: 1000, time: 0 }, 7)[0]).toBeGreaterThan(at({ it: 1000, time: 0 })[0]);
    // Ages II and III scale the iterations.
    const [a1, a2, a3] = at({ it: 1000, time: 0 });
    expect(a2 / a1).toBeCloseTo(1.5, 5);
    expect(a3 / a1).toBeCloseTo(2, 5);
    expect(at({ it: 100_000, time: 0.5 })).toEqual([0.5, 0.5, 0.5]);
    expect(at({ it: 1000, time: 0, depth: 4 })[0]).toBeLessThan(at({ it: 1000, time: 0 })[0]);
    expect(gameSeconds(['random', 'rulebased', 'random'])).toBeLessThan(0.01);
    // The simulated opponents' policy counts for their seats: between all-random and all-rule-based.
    const policies = (playout: typeof p.playout, opp: typeof p.opp) => at({ it: 1000, time: 0, playout, opp })[0];
    expect(policies('random', 'rulebased')).toBeGreaterThan(policies('random', 'same'));
    expect(policies('random', 'rulebased')).toBeLessThan(policies('rulebased', 'same'));
    expect(gameSeconds(['mcts:1000,0', 'rulebased', 'random'])).toBeGreaterThan(gameSeconds(['mcts:100,0', 'rulebased', 'random']) * 9);
  });

  it('a sweep over MAX_CPU_HOURS is refused on (cost), naming the estimate and the limit', () => {
    const spec = { ...base, seats: ['mcts:20000,0', 'mcts:20000,0', 'rulebased'], deals: { count: 1000 } };
    const { cost } = checkSweepSpec(spec, { ...DEFAULTS, maxCpuHours: 1e9 });
    const err = refusal(spec, { ...DEFAULTS, maxCpuHours: 2 });
    expect(err.field).toBe('(cost)');
    expect(err.message).toContain(`1,000 games are estimated at ${cost!.cpuHours.toFixed(1)} CPU-hours, over this lab's limit of 2 (MAX_CPU_HOURS)`);
    expect(cost!.cpuHours).toBeGreaterThan(2);
    // The estimate is the cells' games × their game estimate.
    expect(cost!.cpuHours).toBeCloseTo((1000 * expectedCpuSeconds(['mcts:20000,0', 'mcts:20000,0', 'rulebased'])) / 3600, 6);
  });

  it('a game estimated over MAX_GAME_SECONDS is refused on (cost), naming its cell and agents', () => {
    const spec = { ...base, seats: [{ agent: 'mcts', params: { it: [100, 50_000], time: 0 } }, 'mcts(it=50000,time=0)', 'rulebased'], deals: { count: 1 } };
    const err = refusal(spec, { ...DEFAULTS, maxGameSeconds: 60 });
    expect(err.field).toBe('(cost)');
    expect(err.message).toMatch(/a game of cell 1 \(mcts\(it=50000,time=0\), mcts\(it=50000,time=0\), rulebased\) may take up to \d+ seconds on a busy worker, over this lab's limit of 60 \(MAX_GAME_SECONDS/);
  });

  it('every preset is within the default limits', () => {
    for (const file of readdirSync(PRESETS).filter((f) => f.endsWith('.json'))) {
      const { cost } = checkSweepSpec(JSON.parse(readFileSync(join(PRESETS, file), 'utf8')), DEFAULTS);
      expect(cost!.cpuHours, file).toBeLessThan(DEFAULTS.maxCpuHours);
    }
  });
});

describe('fixed wonder sets', () => {
  const fixed = (sets: unknown[][]) => ({ ...base, wonders: { mode: 'fixed', sets } });

  it('a board named twice (by any spelling or index) is refused at wonders.sets.i.j', () => {
    const twice = refusal(fixed([['Rhodos', 'Giza', 'Babylon'], ['Rhodos', 'Gizah', 'Rhodes']]));
    expect(twice.field).toBe('wonders.sets.1.2');
    expect(twice.message).toContain("'Rhodes' is the same board as wonders.sets.1.0 ('Rhodos')");
    const index = refusal(fixed([['Alexandria', 0, 'Babylon']]));
    expect(index.field).toBe('wonders.sets.0.1');
  });

  it('an unknown board and a wrong count are refused at wonders.sets.i.j', () => {
    const unknown = refusal(fixed([['Rhodos', 'Atlantis', 'Babylon']]));
    expect(unknown.field).toBe('wonders.sets.0.1');
    expect(unknown.message).toContain("unknown wonder board 'Atlantis'");
    expect(refusal(fixed([['Rhodos', 'Giza', 'Babylon', 'Olympia']])).field).toBe('wonders.sets.0.3');
    const short = refusal(fixed([['Rhodos', 'Giza', 'Babylon'], ['Rhodos']]));
    expect(short.field).toBe('wonders.sets.1.1');
    expect(short.message).toContain('expected 3 boards (players), got 1');
    expect(refusal(fixed([['Rhodos', 7, 'Babylon']])).field).toBe('wonders.sets.0.1');
  });

  it('different boards by name, alias and index are accepted and played on those boards', () => {
    const spec = parseSweepSpec(fixed([['Rhodes', 'Giza', 2]]));
    const plan = new Sweep(spec).game(0);
    expect(plan.boards).toEqual([6, 3, 2]);
  });
});
