/**
 * Statistics over several cells of a sweep, from the aggregate table's counters (never from the
 * cells' summaries): an agent pooled over the cells it plays in, each swept parameter's values, and
 * a matchup's "row agent wins the game" matrix. Counters add up across cells, so every pooled
 * number is weighted by what it counts — a mean time per decision by decisions, iterations per
 * second by thinking time, a VP quantile by the summed histogram — and comes with its n and a 95 %
 * interval.
 */
import { meanHalfWidth, type Interval } from '../stats/stats.js';
import { cellLabels, sweepConfigs } from './labels.js';
import { rateEstimate, summarizeLabelFields, type CellFields, type LabelAggregate, type RateEstimate } from './summaries.js';
import { parameterByKey } from '../../agents/params.js';
import type { SweepCell, SweepSpec, SweptValues } from '../plan/sweep.js';

/** An agent (a distinct spec) pooled over the cells it plays in. */
export interface PooledLabel extends Omit<LabelAggregate, 'seats' | 'progression'> {
  label: string;
  /** Cells pooled. */
  cells: number;
}

/** Progression buckets (b<n>|…) are positions within one cell: they are not summed across cells. */
const isBucket = (field: string) => field[0] === 'b' && field.charCodeAt(1) >= 48 && field.charCodeAt(1) <= 57;

function addFields(into: Map<string, number>, from: ReadonlyMap<string, number>): void {
  for (const [k, v] of from) if (!isBucket(k)) into.set(k, (into.get(k) ?? 0) + v);
}

function pooled(label: string, fields: Map<string, number>, cells: number, players: number): Omit<PooledLabel, 'config'> {
  const { progression: _, ...summary } = summarizeLabelFields(fields, players, 0);
  return { label, cells, ...summary };
}

/** Every label of these cells pooled over the cells it plays in, in order of first appearance. */
export function pooledLabels(byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[]): PooledLabel[] {
  const acc = new Map<string, { fields: Map<string, number>; cells: number }>();
  for (const cell of cells) {
    cellLabels(cell).forEach((label, L) => {
      let a = acc.get(label);
      if (!a) acc.set(label, (a = { fields: new Map(), cells: 0 }));
      a.cells++;
      const f = byCell.get(cell.index)?.labels.get(L);
      if (f) addFields(a.fields, f);
    });
  }
  const players = cells[0]?.agents.length ?? 0;
  const configOf = sweepConfigs(cells);
  return [...acc].map(([label, a]) => ({ ...pooled(label, a.fields, a.cells, players), config: configOf(label) }));
}

/** One value of a swept parameter: the swept seat's agent pooled over the cells with that value. */
export interface ParameterPoint extends RateEstimate {
  value: string | number;
  cells: number;
  meanVp: number;
  /** Half-width of the normal 95 % interval of the mean VP, and the interval itself. */
  meanVpHalfWidth: number;
  meanVpInterval: Interval;
}

export interface ParameterSeries {
  /** The swept field, e.g. `seats.0.c`. */
  key: string;
  /** The spec's seat whose agent the value changes. */
  seat: number;
  /** The parameter's short name and one-line meaning from the parameter table (the key itself when it has none). */
  name: string;
  meaning: string;
  /** Every value is a number: the axis can be numeric. */
  numeric: boolean;
  /** The swept seat's agent at each value, pooled over the other swept parameters' values. */
  points: ParameterPoint[];
  /**
   * When other parameters are swept too (a grid): one line per combination of their values, so
   * that a grid is never read as an average. Absent when this is the only swept parameter.
   */
  lines?: ParameterLine[];
}

/** One line of a grid: the other swept parameters fixed at `given`. */
export interface ParameterLine {
  given: SweptValues;
  /** `c = 0.4, depth = 8` in the parameters' short names. */
  label: string;
  points: ParameterPoint[];
}

const byValue = (a: string | number, b: string | number) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));

const sweptKeyOf = (key: string) => /^seats\.\d+\.(.+)$/.exec(key)?.[1] ?? key;
const nameOf = (key: string) => parameterByKey(sweptKeyOf(key))?.name ?? sweptKeyOf(key);

/** The swept seat's agent over these cells at one value of `key`. */
function parameterPoint(byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[], key: string, seat: number, value: string | number, players: number): ParameterPoint {
  const fields = new Map<string, number>();
  let n = 0;
  for (const cell of cells) {
    if (cell.swept[key] !== value) continue;
    const L = cellLabels(cell).indexOf(cell.agents[seat]);
    const f = byCell.get(cell.index)?.labels.get(L);
    if (f) addFields(fields, f);
    n++;
  }
  const s = pooled(String(value), fields, n, players);
  const interval = { low: s.vp.mean - s.vpMeanHalfWidth, high: s.vp.mean + s.vpMeanHalfWidth };
  return { value, cells: n, ...rateEstimate(s.wins, s.games), meanVp: s.vp.mean, meanVpHalfWidth: s.vpMeanHalfWidth, meanVpInterval: interval };
}

/** For every swept parameter with two or more values (matchup seats aside): win rate and mean VP by value. */
export function parameterSeries(byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[]): ParameterSeries[] {
  const keys = new Map<string, Set<string | number>>();
  for (const cell of cells) {
    for (const [k, v] of Object.entries(cell.swept)) {
      if (k.startsWith('matchup.')) continue;
      if (!keys.has(k)) keys.set(k, new Set());
      keys.get(k)!.add(v);
    }
  }
  const players = cells[0]?.agents.length ?? 0;
  const swept = [...keys].filter(([, values]) => values.size > 1);
  return swept.map(([key, values]) => {
    const seat = Number(/^seats\.(\d+)\./.exec(key)?.[1] ?? 0);
    const sorted = [...values].sort(byValue);
    const def = parameterByKey(sweptKeyOf(key));
    const others = swept.map(([k]) => k).filter((k) => k !== key);
    const series: ParameterSeries = {
      key,
      seat,
      name: nameOf(key),
      meaning: def?.meaning ?? '',
      numeric: sorted.every((v) => typeof v === 'number'),
      points: sorted.map((value) => parameterPoint(byCell, cells, key, seat, value, players)),
    };
    if (others.length) {
      const groups = new Map<string, { given: SweptValues; cells: SweepCell[] }>();
      for (const cell of cells) {
        const given = Object.fromEntries(others.map((k) => [k, cell.swept[k]])) as SweptValues;
        const id = JSON.stringify(others.map((k) => given[k]));
        let group = groups.get(id);
        if (!group) groups.set(id, (group = { given, cells: [] }));
        group.cells.push(cell);
      }
      series.lines = [...groups.values()]
        .sort((a, b) => others.reduce((d, k) => d || byValue(a.given[k], b.given[k]), 0))
        .map(({ given, cells: inLine }) => ({
          given,
          label: others.map((k) => `${nameOf(k)} = ${given[k]}`).join(', '),
          points: sorted.map((value) => parameterPoint(byCell, inLine, key, seat, value, players)),
        }));
    }
    return series;
  });
}

/** The thesis's matchup view: the row agent's wins in its matchup seat against the column agent. */
export interface MatchupWins {
  seats: [number, number];
  specs: string[];
  /** rows[i][j]: specs[i] in seats[0] against specs[j] in seats[1], with its mean VP; null on the diagonal. */
  rows: ((RateEstimate & { meanVp: number; meanVpHalfWidth: number }) | null)[][];
}

export function matchupWins(spec: SweepSpec, byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[]): MatchupWins | undefined {
  const m = spec.matchup;
  if (!m) return undefined;
  const [a, b] = m.seats;
  const rows = m.specs.map((x) =>
    m.specs.map((y) => {
      if (x === y) return null;
      let [games, wins, vp, vp2] = [0, 0, 0, 0];
      for (const cell of cells) {
        if (cell.agents[a] !== x || cell.agents[b] !== y) continue;
        // The agent of seat a itself (its role), not every seat that happens to share its spec.
        const f = byCell.get(cell.index)?.roles.get(a);
        games += f?.get('g') ?? 0;
        wins += f?.get('w') ?? 0;
        vp += f?.get('vp') ?? 0;
        vp2 += f?.get('vp2') ?? 0;
      }
      const mean = games ? vp / games : NaN;
      const sd = games > 1 ? Math.sqrt(Math.max(0, (vp2 - games * mean * mean) / (games - 1))) : NaN;
      return { ...rateEstimate(wins, games), meanVp: mean, meanVpHalfWidth: meanHalfWidth(sd, games) };
    }),
  );
  return { seats: [a, b], specs: [...m.specs], rows };
}
