/**
 * `wonderlab sweep`: a sweep spec (a preset of a published experiment, or any spec file) played
 * on this machine, no Redis needed, with the same games and the same aggregates the lab computes.
 */
import { closeSync, existsSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AggregateFold,
  Standings,
  Sweep,
  SweepSpecError,
  cellLabels,
  formatStandings,
  parseSweepSpec,
  placementOf,
  runGames,
  summarizeAggregates,
  sweepCost,
  sweepSize,
  sweepStatistics,
  type CellAggregate,
  type GamePlan,
  type GameSummary,
  type SweepSpec,
} from '../lab/index.js';
import { displayName } from '../agents/index.js';
import { HELP_OPTION, LOCAL_RUN_OPTIONS, OUTPUT_OPTIONS, UsageError, flagOptions, parseCommandLine, threadsOption, valueOptions } from './options.js';
import { progress } from './play.js';
import { duration, formatSweepSummary } from './summary.js';

/** The repository's presets/ folder. */
export const PRESETS_DIR = fileURLToPath(new URL('../../../../presets', import.meta.url));

export const SWEEP_USAGE = `usage: wonderlab sweep run <preset | spec.json> [options]
       wonderlab sweep presets
  run               plays every game of the sweep on this machine and prints each cell's results,
                    then a summary over the cells: every agent pooled, each swept parameter by
                    value, and with two or more agents the head-to-head matrix and their ratings
  presets           lists the presets (one per published experiment, in presets/) with their
                    cells, games and estimated CPU time
options of run:
  --deals N         deals per board set instead of the spec's (a smaller run of the same design)
  --cells LIST      only these cells, e.g. 0,2,5
  --threads N       worker threads (default: the number of cores)
  --by-order        also each seat order's results (the thesis's Table 7.1)
  --out FILE        one game summary per line (JSON Lines)
  --json            the spec, the cells' aggregates and the summary as JSON instead of tables
  --quiet           no progress line
  -h, --help        this text`;

export interface Preset {
  id: string;
  name: string;
  path: string;
}

export function listPresets(dir = PRESETS_DIR): Preset[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      return { id: f.replace(/\.json$/, ''), name: (JSON.parse(readFileSync(path, 'utf8')) as { name?: string }).name ?? f, path };
    });
}

/**
 * The presets with their sizes: cells, games and the CPU time the lab's estimate gives them (the
 * estimate a submit shows), so that a run can be chosen, or shrunk with --deals, before it starts.
 */
export function presetsTable(dir = PRESETS_DIR): string {
  const rows = listPresets(dir).map((p) => {
    const spec = loadSpec(p.id, dir);
    const size = sweepSize(spec);
    const cost = sweepCost(new Sweep(spec).cells, size.gamesPerCell);
    return [p.id, String(size.cells), String(size.total), duration(cost.cpuHours * 3600), p.name];
  });
  const header = ['preset', 'cells', 'games', 'CPU (est.)', 'name'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // Text left, numbers right.
  const line = (r: string[]) => r.map((v, i) => (i === 0 || i === r.length - 1 ? v.padEnd(i === 0 ? widths[i] : 0) : v.padStart(widths[i]))).join('  ');
  return [line(header), ...rows.map(line), 'games = cells × board sets × deals × seat orders; --deals N plays N deals per board set instead.'].join('\n');
}

/** A preset id or a spec file: where it is, and its JSON as written (not yet validated). */
export function readSpecInput(ref: string, dir = PRESETS_DIR): { path: string; input: unknown } {
  const path = existsSync(ref) ? ref : join(dir, `${ref.replace(/\.json$/, '')}.json`);
  if (!existsSync(path)) {
    const known = listPresets(dir).map((p) => p.id);
    throw new UsageError(`'${ref}' is neither a file nor a preset (presets: ${known.join(', ')})`);
  }
  try {
    return { path, input: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (err) {
    throw new UsageError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * `--deals N`: the same design with N deals per board set instead of the spec's (a smaller run);
 * the spec as written without it. Applied to the spec as written, before validation, so that a
 * local run and a lab see the same spec.
 */
export function withDeals(input: unknown, deals: string | undefined): unknown {
  if (deals === undefined) return input;
  const n = Number(deals);
  if (!/^\d+$/.test(deals.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--deals must be a positive integer, got '${deals}'`);
  // A spec that is no object is left as it is: its validation says what is wrong with it.
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const given = (input as { deals?: unknown }).deals;
  return { ...input, deals: { ...(typeof given === 'object' && given !== null ? given : {}), count: n } };
}

/** A preset id or a spec file, with `--deals` if given, validated. */
export function loadSpec(ref: string, dir = PRESETS_DIR, deals?: string): SweepSpec {
  const { path, input } = readSpecInput(ref, dir);
  try {
    return parseSweepSpec(withDeals(input, deals));
  } catch (err) {
    if (err instanceof SweepSpecError) throw new UsageError(`${path}: ${err.message}`);
    throw err;
  }
}

const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '-');

/** One cell as text: its agents' standings, each seat's agent where seats share a spec, paired estimates. */
export function formatCell(cell: CellAggregate, standings: string, byRole: boolean): string {
  const swept = Object.entries(cell.swept);
  const title = `cell ${cell.index}: ${swept.length ? swept.map(([k, v]) => `${k}=${v}`).join(', ') : cell.agents.map(displayName).join(' ; ')} (${cell.games} games)`;
  const lines = [title, standings];
  if (byRole) {
    for (const r of cell.roles) lines.push(`  seat ${r.seat} of the spec (${displayName(r.agent)}): ${r.wins}/${r.games} wins, ${pct(r.winRate)} ± ${pct(r.halfWidth)} %, mean VP ${r.meanVp.toFixed(1)}`);
  }
  for (const l of cell.labels) {
    if (l.paired) lines.push(`  paired over ${l.paired.groups} deals: ${displayName(l.label)} ${pct(l.paired.mean)} ± ${pct(l.paired.halfWidth)} %`);
  }
  const d = cell.pairedDifference;
  if (d) lines.push(`  paired difference, seat ${d.seats[0]} (${displayName(d.labels[0])}) minus seat ${d.seats[1]} (${displayName(d.labels[1])}): ${pct(d.mean)} ± ${pct(d.halfWidth)} points over ${d.groups} deals`);
  return lines.join('\n');
}

export async function cmdSweep(args: string[], out: (s: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    out(SWEEP_USAGE);
    return;
  }
  if (sub === 'presets') {
    out(presetsTable());
    return;
  }
  if (sub !== 'run') throw new UsageError(`unknown sweep command '${sub}' (run, presets)`);
  const { values, positionals } = parseCommandLine({
    args: rest,
    allowPositionals: true,
    options: { ...HELP_OPTION, ...valueOptions('deals', 'cells'), ...flagOptions('by-order'), ...LOCAL_RUN_OPTIONS, ...OUTPUT_OPTIONS },
  });
  if (values.help) {
    out(SWEEP_USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError('sweep run takes one preset or spec file');
  const spec = loadSpec(positionals[0], PRESETS_DIR, values.deals);
  const threads = threadsOption(values.threads);
  const sweep = new Sweep(spec);
  const cells = values.cells === undefined ? sweep.cells.map((c) => c.index) : values.cells.split(',').map(Number);
  for (const c of cells) if (!Number.isInteger(c) || c < 0 || c >= sweep.cells.length) throw new UsageError(`--cells: no cell '${c}' (0 to ${sweep.cells.length - 1})`);
  const plans: GamePlan[] = cells.flatMap((c) => Array.from({ length: sweep.gamesPerCell }, (_, i) => sweep.game(c * sweep.gamesPerCell + i)));
  if (!values.json) out(`${spec.name}: ${plans.length} games in ${cells.length} of ${sweep.cells.length} cells (${sweep.gamesPerCell} per cell); ${threads} thread${threads > 1 ? 's' : ''}`);

  const fold = new AggregateFold();
  const perCell = new Map<number, Standings>();
  const perOrder = new Map<string, Standings>();
  const fd = values.out ? openSync(values.out, 'w') : undefined;
  const tick = progress(plans.length, values.quiet === true || values.json === true);
  let done = 0;
  try {
    await runGames(plans, {
      threads,
      onResult: (g: GameSummary) => {
        const cell = Math.floor(g.index / sweep.gamesPerCell);
        fold.add(g, placementOf(sweep, g.index));
        if (!perCell.has(cell)) perCell.set(cell, new Standings());
        perCell.get(cell)!.add(g);
        const key = `${cell}|${g.seating}`;
        if (!perOrder.has(key)) perOrder.set(key, new Standings());
        perOrder.get(key)!.add(g);
        if (fd !== undefined) writeSync(fd, JSON.stringify({ cell, ...g }) + '\n');
        tick(++done);
      },
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const aggregates = summarizeAggregates(fold.fields, sweep.cells, sweep.gamesPerCell).filter((c) => cells.includes(c.index));
  // Over the cells played: every agent pooled, each swept parameter, head to head and ratings.
  const { cells: _, ...summary } = sweepStatistics(fold.fields, sweep, { offset: 0, limit: 0 }, cells);
  if (values.json) {
    // Each seat order's standings too, when a deal is played in several (Table 7.1 reports them).
    const orders = sweep.ordersPerDeal > 1
      ? aggregates.map((cell) => ({
          cell: cell.index,
          orders: sweep.orders.map((order, o) => ({ order: order.map((a) => sweep.cells[cell.index].agents[a]), standings: perOrder.get(`${cell.index}|${o}`)?.rows() ?? [] })),
        }))
      : undefined;
    out(JSON.stringify({ spec, gamesPerCell: sweep.gamesPerCell, cells: aggregates, summary, ...(orders ? { orders } : {}) }, null, 2));
    return;
  }
  for (const cell of aggregates) {
    const shared = cellLabels(sweep.cells[cell.index]).length < spec.players;
    out('');
    out(formatCell(cell, formatStandings(perCell.get(cell.index)!.rows()), shared || spec.matchup !== undefined));
    if (values['by-order'] && sweep.ordersPerDeal > 1) {
      sweep.orders.forEach((order, o) => {
        const rows = perOrder.get(`${cell.index}|${o}`)?.rows() ?? [];
        out(`  seat order ${o} (${order.map((a) => displayName(sweep.cells[cell.index].agents[a])).join(' ; ')}):`);
        out(formatStandings(rows).replace(/^/gm, '    '));
      });
    }
  }
  out('');
  out(formatSweepSummary({ cells: [], ...summary }));
  if (values.out) out(`\ngame summaries written to ${values.out}`);
}
