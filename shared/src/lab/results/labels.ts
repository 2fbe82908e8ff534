/**
 * A cell's labels and the finishing-order field: the names both sides of the aggregates share —
 * the write side (increments.ts) counts under them, the read side (summaries.ts) parses them.
 */
import { canonicalSpec, parseAgentSpec } from '../../agents/index.js';
import type { GameSummary } from '../game/game.js';
import type { SweepCell } from '../plan/sweep.js';

const canonical = new Map<string, string>();
/** A label's canonical spec (cached: labels repeat over every cell and every request). */
export function configOf(label: string): string {
  let c = canonical.get(label);
  if (c === undefined) canonical.set(label, (c = canonicalSpec(parseAgentSpec(label))));
  return c;
}

/**
 * The names a sweep shows its agents by (page, summary CSV, games CSV): the canonical spec, with
 * the parameters swept at the agent's seat written even at their default value. configOf alone
 * named the cell at the default C a bare `mcts`, as if C had not been swept; the ladder, which
 * merges sweeps, keeps configOf's name.
 */
export function sweepConfigs(cells: readonly SweepCell[]): (label: string) => string {
  const swept = new Map<string, Set<string>>();
  for (const cell of cells) {
    for (const field of Object.keys(cell.swept)) {
      const m = /^seats\.(\d+)\.(.+)$/.exec(field);
      const label = m ? cell.agents[Number(m[1])] : undefined;
      if (!m || label === undefined) continue;
      let keys = swept.get(label);
      if (!keys) swept.set(label, (keys = new Set()));
      keys.add(m[2].toLowerCase());
    }
  }
  const names = new Map<string, string>();
  return (label) => {
    let name = names.get(label);
    if (name === undefined) {
      const keys = swept.get(label);
      names.set(label, (name = keys ? canonicalSpec(parseAgentSpec(label), [...keys]) : configOf(label)));
    }
    return name;
  };
}

/**
 * Every agent spec of these cells (and `more`, a matchup's) as submitted, with its configuration:
 * the one name it is shown by (`mcts:100,10,100` and `mcts(it=100)` are both `mcts`; a swept
 * parameter always written, see sweepConfigs). For display: results stay keyed by the specs as
 * submitted.
 */
export function displayNames(cells: readonly SweepCell[], more: readonly string[] = []): Record<string, string> {
  const nameOf = sweepConfigs(cells);
  const names = new Map<string, string>();
  for (const text of [...cells.flatMap((c) => c.agents), ...more]) if (!names.has(text)) names.set(text, nameOf(text));
  return Object.fromEntries(names);
}

/** A cell's labels: its distinct agent specs in seat order. */
export function cellLabels(cell: SweepCell): string[] {
  return [...new Set(cell.agents)];
}

/**
 * A game's finishing order by VP as its seats' label indices, best first: `>` between different VP,
 * `=` within a tie (each tie's labels in ascending order), e.g. `1>0=2`. Counted per cell (field
 * `c<cell>|O<order>`), it is all the head-to-head matrix and the ratings need, and takes no more
 * fields than there are distinct orders.
 */
export function finishingOrder(g: GameSummary, labels: readonly string[]): string {
  const seats = g.players.map((p) => ({ vp: p.score.total, label: labelIndex(labels, p.agent, g.id) })).sort((a, b) => b.vp - a.vp || a.label - b.label);
  return seats.map((s, i) => (i === 0 ? '' : s.vp === seats[i - 1].vp ? '=' : '>') + s.label).join('');
}

/** The groups of a finishing order: label indices, best first, a VP tie in one group. */
export function parseFinishingOrder(text: string): number[][] {
  return text.split('>').map((group) => group.split('=').map(Number));
}

/** A seat's label index in its cell (an agent not of the cell is a corrupt game). */
export function labelIndex(labels: readonly string[], agent: string, id: string): number {
  const i = labels.indexOf(agent);
  if (i < 0) throw new Error(`game ${id}: agent '${agent}' is not one of its cell's agents`);
  return i;
}
