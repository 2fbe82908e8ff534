/**
 * bench --compare's arithmetic: reading `name: value unit` lines and comparing two builds' runs.
 * Nothing here is timed.
 */
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { processorLine } from '../src/lab/results/provenance.js';
import { compareRuns, formatComparison, lowerIsBetter, parseFigures } from '../bench/figures.js';
import { formatBothOrders, formatPaired, pairedSummary, type PairedSummary, type Slice } from '../bench/interleave.js';

const RUN = `${processorLine()}
# wonderlab engine benchmark — Node v20.20.2, 5 rounds of 1s, one core
calibration: 82355 units/s (median of 5, spread ±6.0%)
random_games_3p: 9665 games/s (median of 5, spread ±10.9%)
random_games_3p_per_calibration: 0.117 ratio
(node:123) Warning: something unrelated
game_mcts500_vs_2_rulebased: 2.41 s (median of 3 games; min 2.30, max 2.52)
`;

describe('parseFigures', () => {
  it('reads every figure line with its unit and skips comments and other lines', () => {
    const f = parseFigures(RUN);
    expect([...f.keys()]).toEqual(['calibration', 'random_games_3p', 'random_games_3p_per_calibration', 'game_mcts500_vs_2_rulebased']);
    expect(f.get('calibration')).toEqual({ value: 82355, unit: 'units/s' });
    expect(f.get('random_games_3p_per_calibration')).toEqual({ value: 0.117, unit: 'ratio' });
    expect(f.get('game_mcts500_vs_2_rulebased')).toEqual({ value: 2.41, unit: 's' });
  });

  it('names the processor in a comment line, not a figure', () => {
    const line = processorLine();
    expect(line).toMatch(/^# processor: .+, \d+ logical cores$/);
    if (cpus().length > 0) expect(line).toContain(cpus()[0].model.trim());
    expect(parseFigures(line).size).toBe(0);
  });

  it('reads nothing from output without figures', () => {
    expect(parseFigures('').size).toBe(0);
    expect(parseFigures('Error: boom\n    at main (engine.js:1:1)\n').size).toBe(0);
  });
});

describe('compareRuns', () => {
  const run = (games: number, calibration?: number) =>
    parseFigures(`random_games_3p: ${games} games/s\n` + (calibration === undefined ? '' : `calibration: ${calibration} units/s\n`));

  it('takes the median of each build and the ratio new/old', () => {
    const [games] = compareRuns([run(100), run(120), run(110)], [run(130), run(125), run(140)]);
    expect(games.name).toBe('random_games_3p');
    expect(games.unit).toBe('games/s');
    expect(games.oldMedian).toBe(110);
    expect(games.newMedian).toBe(130);
    expect(games.ratio).toBeCloseTo(130 / 110, 12);
    expect(games.oldSpread).toBeCloseTo(10 / 110, 12);
    expect(games.newSpread).toBeCloseTo(7.5 / 130, 12);
  });

  it('averages the middle two of an even number of runs', () => {
    const [games] = compareRuns([run(100), run(200)], [run(300), run(100), run(200), run(400)]);
    expect(games.oldMedian).toBe(150);
    expect(games.newMedian).toBe(250);
  });

  it('leaves out a figure that one build does not print, keeping the new build’s order', () => {
    const rows = compareRuns([run(100)], [run(90, 50)]);
    expect(rows.map((r) => r.name)).toEqual(['random_games_3p']);
    const both = compareRuns([run(100, 40)], [run(90, 50)]);
    expect(both.map((r) => r.name)).toEqual(['random_games_3p', 'calibration']);
    expect(both[1].ratio).toBeCloseTo(1.25, 12);
  });
});

describe('formatComparison', () => {
  it('prints the ratio as the value of a figure line, then both medians', () => {
    const [c] = compareRuns([parseFigures('clone_3p: 2000000 clones/s')], [parseFigures('clone_3p: 2100000 clones/s')]);
    const line = formatComparison(c);
    expect(line).toBe('clone_3p: 1.050 new/old (old 2000000 ±0.0%, new 2100000 ±0.0% clones/s)');
    expect(parseFigures(line).get('clone_3p')).toEqual({ value: 1.05, unit: 'new/old' });
  });

  it('says when a lower figure is the better one', () => {
    expect(lowerIsBetter('s')).toBe(true);
    expect(lowerIsBetter('bytes')).toBe(true);
    expect(lowerIsBetter('games/s')).toBe(false);
    // A cost over a baseline (training records' CPU over the default's), unlike a speed's ratio.
    expect(lowerIsBetter('cost-ratio')).toBe(true);
    expect(lowerIsBetter('ratio')).toBe(false);
    const [c] = compareRuns([parseFigures('game: 2.5 s')], [parseFigures('game: 2.25 s')]);
    expect(formatComparison(c)).toBe('game: 0.900 new/old (old 2.50 ±0.0%, new 2.25 ±0.0% s, lower is better)');
  });
});

describe('pairedSummary (same-process A/B)', () => {
  const slice = (build: 0 | 1, ops: number, cpuSeconds = 1): Slice => ({ build, ops, cpuSeconds });

  it('takes the median of neighbouring pairs, so a machine that halves its speed halfway leaves the ratio alone', () => {
    // The new build is 10 % faster throughout; the machine runs at full speed, then at half.
    const slices = [slice(0, 100), slice(1, 110), slice(1, 110), slice(0, 100), slice(0, 50), slice(1, 55), slice(1, 55), slice(0, 50)];
    const s = pairedSummary(slices);
    expect(s.pairs).toBe(4);
    expect(s.ratio).toBeCloseTo(1.1, 12);
    expect(s.low).toBeCloseTo(1.1, 12);
    expect(s.high).toBeCloseTo(1.1, 12);
    expect(s.oldRate).toBe(75);
    expect(s.newRate).toBeCloseTo(82.5, 12);
  });

  it('counts CPU seconds, not slices: a slice that got half the CPU did half the work', () => {
    const s = pairedSummary([slice(0, 100, 1), slice(1, 60, 0.5), slice(1, 120, 1), slice(0, 50, 0.5)]);
    expect(s.ratio).toBeCloseTo(1.2, 12);
  });

  it('gives the quartiles of the pair ratios', () => {
    const ratios = [0.8, 1, 1.2, 1.4, 1.6];
    const s = pairedSummary(ratios.flatMap((r) => [slice(0, 100), slice(1, 100 * r)]));
    expect(s.ratio).toBeCloseTo(1.2, 12);
    expect(s.low).toBeCloseTo(1, 12);
    expect(s.high).toBeCloseTo(1.4, 12);
  });

  it('refuses slices that do not alternate between the builds', () => {
    expect(() => pairedSummary([slice(0, 100), slice(0, 100)])).toThrow(/must alternate/);
    expect(() => pairedSummary([slice(0, 100)])).toThrow(/no pair/);
  });

  it('prints a figure line whose value is the median ratio', () => {
    const line = formatPaired('random_games_3p', 'games/s', pairedSummary([slice(0, 100), slice(1, 105)]));
    expect(line).toBe('random_games_3p: 1.050 new/old (quartiles 1.050–1.050 over 1 pairs of slices; old 100, new 105 games/s per CPU-second)');
    expect(parseFigures(line).get('random_games_3p')).toEqual({ value: 1.05, unit: 'new/old' });
  });
});

describe('formatBothOrders (same-process A/B, each build loaded first once)', () => {
  it('combines the two runs per workload by the geometric mean of their median ratios', () => {
    const summary = (ratio: number): PairedSummary => ({ oldRate: 100, newRate: 100 * ratio, pairs: 20, ratio, low: ratio, high: ratio });
    const oldFirst = `# header\n${formatPaired('a', 'games/s', summary(0.9))}\n${formatPaired('b', 'games/s', summary(1.0))}\n`;
    const newFirst = `# header\n${formatPaired('a', 'games/s', summary(1.0))}\n${formatPaired('b', 'games/s', summary(1.21))}\n`;
    const lines = formatBothOrders(oldFirst, newFirst).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^a: 0\.949 new\/old \(old loaded first 0\.900, new loaded first 1\.000\)$/);
    expect(lines[2]).toMatch(/^b: 1\.100 new\/old/);
  });
});
