/**
 * The cross-cell summary `wonderlab sweep run` prints after the cells: every agent pooled over the
 * cells, each swept parameter's curve, and for two or more configurations the head-to-head matrix
 * and the ratings ladder. Every number with its 95 % interval and n; all computed in the lab
 * (sweep-statistics.ts), only laid out here.
 */
import { agentColumns, displayName } from '../agents/index.js';
import type { SweepStatistics } from '../lab/index.js';

const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '-');
const num = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '-');

/** Rows as an aligned text table: the first `left` columns (names) left, the others right. */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatSweepSummary(s: SweepStatistics): string {
  const out: string[] = [];
  out.push('All cells: each agent pooled over the cells it plays in');
  const pooled = agentColumns(s.pooled.map((p) => p.label));
  out.push(
    table(
      [...pooled.header, 'cells', 'games', 'wins', 'win %', 'Wilson 95%', 'mean VP ± 95%', 'ms/decision', 'iter/s'],
      s.pooled.map((p) => [
        ...pooled.cells(p.label),
        String(p.cells),
        String(p.games),
        String(p.wins),
        pct(p.winRate),
        `[${pct(p.wilson.low)}, ${pct(p.wilson.high)}]`,
        `${num(p.vp.mean)} ± ${num(p.vpMeanHalfWidth)}`,
        num(p.decisionMs, p.decisionMs < 10 ? 2 : 0),
        p.iterationsPerSecond > 0 ? String(Math.round(p.iterationsPerSecond)) : '-',
      ]),
      pooled.header.length,
    ),
  );
  for (const series of s.parameters) {
    out.push('', `By ${series.key}: the agent of seat ${series.seat} at each value`);
    out.push(
      table(
        [series.key, 'cells', 'games', 'wins', 'win %', 'Wilson 95%', 'mean VP ± 95%'],
        series.points.map((p) => [String(p.value), String(p.cells), String(p.games), String(p.wins), pct(p.winRate), `[${pct(p.wilson.low)}, ${pct(p.wilson.high)}]`, `${num(p.meanVp)} ± ${num(p.meanVpHalfWidth)}`]),
      ),
    );
  }
  if (s.headToHead) {
    const m = s.headToHead;
    out.push('', 'Head to head: % of games the row scored more VP than the column at the same table (ties half), [Wilson 95%], n');
    const names = m.configs.map(displayName);
    out.push(table(['row \\ column', ...names], m.rows.map((row, i) => [names[i], ...row.map((c) => (!c ? '—' : c.games ? `${pct(c.score)} [${pct(c.interval.low)}, ${pct(c.interval.high)}] n=${c.games}` : '-'))])));
  }
  if (s.headToHeadNote) out.push('', `Head to head: ${s.headToHeadNote}`);
  if (s.ratings) {
    const r = s.ratings;
    out.push('', `Ratings: Bradley–Terry on the Elo scale, 0 = ${displayName(r.anchor)}, over ${r.games} games; 95 % intervals clustered by game`);
    const configs = agentColumns(r.ratings.map((x) => x.config), 'configuration');
    out.push(table([...configs.header, 'Elo', '95% interval', 'games'], r.ratings.map((x) => [...configs.cells(x.config), num(x.elo, 0), Number.isFinite(x.low) ? `[${num(x.low, 0)}, ${num(x.high, 0)}]` : '-', String(x.games)]), configs.header.length));
    if (r.components > 1) out.push(`(${r.components} groups of configurations never met: ratings compare only within a group)`);
  }
  return out.join('\n');
}

/** Seconds in words: '42 s', '3 min 20 s', '2 h 5 min'; '-' for none. */
export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '-';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
