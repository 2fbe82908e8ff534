/**
 * `wonderlab sweep` as a user runs it: the real bin in a child process, on a spec file and on the
 * presets, against the same sweep expanded and folded in this process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AggregateFold, Sweep, parseSweepSpec, placementOf, playGame, summarizeAggregates, sweepSize, sweepStatistics } from '../src/lab/index.js';

const BIN = resolve(import.meta.dirname, '../../bin/wonderlab.mjs');
const PRESETS = resolve(import.meta.dirname, '../../presets');
const dir = mkdtempSync(join(tmpdir(), 'wonderlab-sweep-'));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const spec = {
  name: 'cli sweep',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: [10, 20] } }, 'rulebased', 'rulebased'],
  deals: { firstSeed: 4, count: 3 },
  seating: 'swap',
};

describe('wonderlab sweep', () => {
  it('run --json gives the aggregates the lab would compute from the same games', () => {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify(spec));
    const r = run('sweep', 'run', file, '--json', '--threads', '2');
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    const sweep = new Sweep(parseSweepSpec(spec));
    const fold = new AggregateFold();
    for (let k = 0; k < sweep.size; k++) fold.add(playGame(sweep.game(k)), placementOf(sweep, k));
    const want = summarizeAggregates(fold.fields, sweep.cells, sweep.gamesPerCell);
    expect(got.cells).toHaveLength(2);
    got.cells.forEach((cell: ReturnType<typeof summarizeAggregates>[number], i: number) => {
      expect(cell.games).toBe(want[i].games);
      expect(cell.labels.map((l) => [l.label, l.games, l.wins, l.ties])).toEqual(want[i].labels.map((l) => [l.label, l.games, l.wins, l.ties]));
      expect(cell.roles.map((x) => [x.seat, x.wins])).toEqual(want[i].roles.map((x) => [x.seat, x.wins]));
      expect(cell.pairedDifference?.groups).toBe(3);
    });
    // Per seat order standings are there for a design with several orders.
    expect(got.orders[0].orders).toHaveLength(2);
    // The summary over the cells is the lab's, from the same games.
    const { cells: _, ...summary } = sweepStatistics(fold.fields, sweep, { offset: 0, limit: 0 });
    // (decision times aside: the games were played twice)
    const untimed = (x: unknown) => JSON.parse(JSON.stringify(x), (k, v) => (k === 'decisionMs' || k === 'iterationsPerSecond' ? undefined : v));
    expect(untimed(got.summary)).toEqual(untimed(summary));
    expect(got.summary.pooled.map((p: { label: string }) => p.label)).toEqual(['mcts(it=10)', 'rulebased', 'mcts(it=20)']);
    expect(got.summary.parameters[0].points.map((p: { value: number }) => p.value)).toEqual([10, 20]);
    expect(got.summary.ratings.ratings).toHaveLength(3);
  });

  it('run ends with a summary over the cells: pooled agents, the swept parameter, head to head and ratings with intervals', () => {
    const file = join(dir, 'spec3.json');
    writeFileSync(file, JSON.stringify(spec));
    const r = run('sweep', 'run', file, '--quiet', '--threads', '2');
    expect(r.code, r.stderr).toBe(0);
    const tail = r.stdout.slice(r.stdout.indexOf('All cells:'));
    expect(tail).toMatch(/^All cells: each agent pooled over the cells it plays in\nagent +cells +games +wins +win % +Wilson 95% +mean VP ± 95%/);
    expect(tail).toMatch(/\nrulebased +2 +24 /);
    expect(tail).toContain('By seats.0.it: the agent of seat 0 at each value');
    expect(tail).toContain('Head to head: % of games the row scored more VP than the column at the same table (ties half), [Wilson 95%], n');
    expect(tail).toMatch(/Ratings: Bradley–Terry on the Elo scale, 0 = the mean of each component, over 12 games/);
    for (const config of ['mcts(it=10)', 'mcts(it=20)', 'rulebased']) expect(tail).toMatch(new RegExp(`\\n${config.replace(/[()]/g, '\\$&')} +-?\\d+ +\\[-?\\d+, -?\\d+\\] +\\d+`));
  });

  it('run --help prints the usage and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = run('sweep', 'run', flag);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('usage: wonderlab sweep run <preset | spec.json> [options]');
      expect(r.stdout).toContain('--deals N');
    }
  });

  it('run prints a table per cell; --cells and --deals choose a part; --out writes every game', () => {
    const file = join(dir, 'spec2.json');
    writeFileSync(file, JSON.stringify(spec));
    const out = join(dir, 'games.jsonl');
    const r = run('sweep', 'run', file, '--cells', '1', '--deals', '2', '--quiet', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('4 games in 1 of 2 cells');
    expect(r.stdout).toContain('cell 1: seats.0.it=20');
    expect(r.stdout).not.toContain('cell 0:');
    expect(r.stdout).toMatch(/paired difference, seat 0 \(mcts\(it=20\)\) minus seat 1 \(rulebased\)/);
    const games = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(games.map((g) => g.cell)).toEqual([1, 1, 1, 1]);
  });

  it('presets lists every preset with its cells, games and estimated CPU time, and every preset is a valid spec', () => {
    const r = run('sweep', 'presets');
    expect(r.code).toBe(0);
    const files = readdirSync(PRESETS).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(11);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^preset +cells +games +CPU \(est\.\) +name$/);
    for (const f of files) {
      const id = f.replace(/\.json$/, '');
      const preset = parseSweepSpec(JSON.parse(readFileSync(join(PRESETS, f), 'utf8')));
      const size = sweepSize(preset);
      expect(size.total).toBe(new Sweep(preset).size);
      const line = lines.find((l) => l.startsWith(`${id} `));
      expect(line, id).toMatch(new RegExp(`^${id} +${size.cells} +${size.total} +\\d+ (s|min|h)\\b.*  ${preset.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
  });

  it('a preset runs by name', () => {
    const r = run('sweep', 'run', 'quick-demo', '--deals', '2', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 games in 1 of 1 cells');
  });

  it('bad input exits 2 and says what is wrong', () => {
    expect(run('sweep', 'run', 'no-such-preset').stderr).toMatch(/neither a file nor a preset \(presets: .*quick-demo/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...spec, seats: ['mcts(it=abc)', 'rulebased', 'rulebased'] }));
    const r = run('sweep', 'run', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('seats.0');
    expect(run('sweep', 'run', 'quick-demo', '--cells', '7').stderr).toContain('no cell');
    // --threads is checked as play checks it (options.ts), before any game runs.
    const threads = run('sweep', 'run', 'quick-demo', '--threads', '0');
    expect(threads.code).toBe(2);
    expect(threads.stderr).toContain("--threads must be an integer from 1 to 1024, got '0'");
    expect(run('sweep', 'frobnicate').code).toBe(2);
  });
});
