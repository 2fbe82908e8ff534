/**
 * A lab's limits on what one sweep may ask for, and the checks that enforce them. The size checks
 * multiply counts and never expand the spec, so a grid of a million cells is refused as fast as
 * one of ten; the per-agent checks run only once the grid is known to be within MAX_CELLS.
 * Every refusal is a SweepSpecError naming the field (or the product), the value and the limit.
 */
import type { AgentSpec } from '../../agents/index.js';
import { CPU_SHARE, agentSeconds, baseGameSeconds, decisionBoundSeconds, extBudgetSeconds } from './cost.js';

export interface SweepLimits {
  /** Points of the parameter grid (MAX_CELLS). */
  maxCells: number;
  /** Games in the whole sweep (MAX_GAMES). */
  maxGames: number;
  /** MCTS iterations of one decision, the Age scale applied (MAX_MOVE_ITERATIONS). */
  maxMoveIterations: number;
  /** An MCTS decision's time cap, in seconds (MAX_MOVE_SECONDS); 0 (no cap) is allowed, iterations bound it. */
  maxMoveSeconds: number;
  /** Estimated CPU seconds of one game (MAX_GAME_SECONDS): a game must fit in a stopping worker's grace. */
  maxGameSeconds: number;
  /** Estimated CPU-hours of the whole sweep (MAX_CPU_HOURS). */
  maxCpuHours: number;
}

/** The env variable of each limit, as messages and the README name them. */
export const LIMIT_SETTINGS: Record<keyof SweepLimits, string> = {
  maxCells: 'MAX_CELLS',
  maxGames: 'MAX_GAMES',
  maxMoveIterations: 'MAX_MOVE_ITERATIONS',
  maxMoveSeconds: 'MAX_MOVE_SECONDS',
  maxGameSeconds: 'MAX_GAME_SECONDS',
  maxCpuHours: 'MAX_CPU_HOURS',
};

/** One factor of a product: what it counts, how many, and the field it comes from. */
export interface Factor {
  field: string;
  count: number;
  what: string;
}

export interface SweepSize {
  cells: number;
  gamesPerCell: number;
  total: number;
  /** The factors of cells (listed parameters, matchup pairs) and of games per cell (sets, deals, orders). */
  cellFactors: Factor[];
  gameFactors: Factor[];
}

/** A count for a message: grouped digits, and a plain word for a product past 2^53. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return 'more than 10^308';
  return Number.isSafeInteger(n) ? n.toLocaleString('en-US') : `about ${n.toExponential(2)}`;
}

const product = (factors: Factor[]) => factors.map((f) => `${formatCount(f.count)} ${f.what} (${f.field})`).join(' × ');

/** A problem with a spec: the field it names and what is wrong (SweepSpecError is built from it). */
export interface LimitProblem {
  field: string;
  message: string;
}

/** The grid's size against MAX_CELLS and MAX_GAMES; undefined when within both. */
export function sizeProblem(size: SweepSize, limits: SweepLimits): LimitProblem | undefined {
  if (size.cells > limits.maxCells) {
    return {
      field: '(cells)',
      message: `${product(size.cellFactors)} = ${formatCount(size.cells)} cells, over this lab's limit of ${formatCount(limits.maxCells)} cells per sweep (${LIMIT_SETTINGS.maxCells})`,
    };
  }
  if (size.total > limits.maxGames) {
    const factors = [{ field: 'cells', count: size.cells, what: 'cells' }, ...size.gameFactors].filter((f, i) => i === 0 || f.count > 1);
    return {
      field: '(games)',
      message: `${product(factors).replace(' (cells)', '')} = ${formatCount(size.total)} games, over this lab's limit of ${formatCount(limits.maxGames)} games per sweep (${LIMIT_SETTINGS.maxGames})`,
    };
  }
  return undefined;
}

/** Where an agent of the grid comes from: the field a problem with it names. */
export interface AgentSource {
  text: string;
  /** 'seats.1', or 'matchup.specs.2'. */
  field: string;
  /** For an object seat: the keys it sets (a problem with one of them names seats.N.params.KEY). */
  keys?: readonly string[];
  /** The spec, when already parsed. */
  parsed?: AgentSpec;
}

/** An MCTS agent's per-move budget against MAX_MOVE_ITERATIONS and MAX_MOVE_SECONDS; a minimax agent's time cap against MAX_MOVE_SECONDS. */
export function moveProblem(source: AgentSource, spec: AgentSpec, limits: SweepLimits): LimitProblem | undefined {
  if (spec.kind === 'minimax' && spec.minimax.time > limits.maxMoveSeconds) {
    const field = source.keys?.includes('time') ? `${source.field}.params.time` : source.field;
    return { field, message: `agent '${source.text}': time=${spec.minimax.time} seconds per move, over this lab's limit of ${limits.maxMoveSeconds} (${LIMIT_SETTINGS.maxMoveSeconds})` };
  }
  if (spec.kind === 'ext' && extBudgetSeconds(spec) > limits.maxMoveSeconds) {
    return { field: source.field, message: `agent '${source.text}': time=${extBudgetSeconds(spec)} seconds per move, over this lab's limit of ${limits.maxMoveSeconds} (${LIMIT_SETTINGS.maxMoveSeconds})` };
  }
  if (!('params' in spec)) return undefined;
  const p = spec.params;
  const at = (key: string) => (source.keys?.includes(key) ? `${source.field}.params.${key}` : source.field);
  const scale = Math.max(...p.scale);
  const perMove = Math.round(p.it * scale);
  if (perMove > limits.maxMoveIterations) {
    return {
      field: source.keys?.includes('scale') && !source.keys.includes('it') ? at('scale') : at('it'),
      message: `agent '${source.text}': it=${formatCount(p.it)} × scale ${scale} = ${formatCount(perMove)} iterations per move, over this lab's limit of ${formatCount(limits.maxMoveIterations)} (${LIMIT_SETTINGS.maxMoveIterations})`,
    };
  }
  if (p.time > limits.maxMoveSeconds) {
    return {
      field: at('time'),
      message: `agent '${source.text}': time=${p.time} seconds per move, over this lab's limit of ${limits.maxMoveSeconds} (${LIMIT_SETTINGS.maxMoveSeconds})`,
    };
  }
  return undefined;
}

/**
 * The play page's check of a table's agents (`agents`: seat → source, the person's seat absent):
 * the agents of one step decide one after another while a person waits, so their costliest
 * decisions together (decisionBoundSeconds) must stay within `maxSeconds` (PLAY_MOVE_SECONDS).
 * The problem names the costliest agent's field.
 */
export function playStepProblem(agents: readonly AgentSource[], players: number, maxSeconds: number): LimitProblem | undefined {
  const costs = agents.map((a) => ({ a, seconds: decisionBoundSeconds(a.text, players) }));
  const total = costs.reduce((sum, c) => sum + c.seconds, 0);
  if (total <= maxSeconds) return undefined;
  const worst = costs.reduce((x, y) => (y.seconds > x.seconds ? y : x));
  const together = costs.length > 1 ? `; the ${costs.length} agents of a step together ${formatSeconds(total)}` : '';
  return {
    field: worst.a.field,
    message: `agent '${worst.a.text}' may think up to ${formatSeconds(worst.seconds)} a move at ${players} players (estimated on a busy core)${together}, over this lab's limit of ${maxSeconds} s (PLAY_MOVE_SECONDS) for what a person waits at each move: lower its it=, depth= or worlds=, or give it a time= cap`,
  };
}

const formatSeconds = (s: number) => (s >= 100 ? `${formatCount(Math.round(s))} s` : `${s.toPrecision(2)} s`);

export interface SweepCost {
  /** Expected CPU-hours of every game (cost.ts: CPU_SHARE of the bound): what the sweep costs. */
  cpuHours: number;
  /** The bound of the costliest game's seconds on a busy worker (against MAX_GAME_SECONDS and a worker's grace), and its cell. */
  maxGameSeconds: number;
  maxGameCell: number;
}

/** The estimated cost of a sweep whose cells are listed (see cost.ts). */
export function sweepCost(cells: readonly { agents: readonly string[] }[], gamesPerCell: number): SweepCost {
  // Cells share agents: each distinct spec is costed once.
  const perAgent = new Map<string, number>();
  const costOf = (text: string, players: number) => {
    let seconds = perAgent.get(text);
    if (seconds === undefined) perAgent.set(text, (seconds = agentSeconds(text, players)));
    return seconds;
  };
  let seconds = 0;
  let maxGameSeconds = 0;
  let maxGameCell = 0;
  cells.forEach((cell, index) => {
    const players = cell.agents.length;
    const game = cell.agents.reduce((sum, text) => sum + costOf(text, players), baseGameSeconds(players));
    seconds += game * gamesPerCell;
    if (game > maxGameSeconds) {
      maxGameSeconds = game;
      maxGameCell = index;
    }
  });
  return { cpuHours: (seconds * CPU_SHARE) / 3600, maxGameSeconds, maxGameCell };
}

/** The estimated cost against MAX_GAME_SECONDS and MAX_CPU_HOURS. */
export function costProblem(cost: SweepCost, cells: readonly { agents: readonly string[] }[], size: SweepSize, limits: SweepLimits): LimitProblem | undefined {
  if (cost.maxGameSeconds > limits.maxGameSeconds) {
    const agents = cells[cost.maxGameCell].agents;
    return {
      field: '(cost)',
      message: `a game of cell ${cost.maxGameCell} (${agents.join(', ')}) may take up to ${Math.round(cost.maxGameSeconds)} seconds on a busy worker, over this lab's limit of ${limits.maxGameSeconds} (${LIMIT_SETTINGS.maxGameSeconds}; a game must be able to finish within a stopping worker's grace)`,
    };
  }
  if (cost.cpuHours > limits.maxCpuHours) {
    return {
      field: '(cost)',
      message: `${formatCount(size.total)} games are estimated at ${cost.cpuHours.toFixed(1)} CPU-hours, over this lab's limit of ${limits.maxCpuHours} (${LIMIT_SETTINGS.maxCpuHours})`,
    };
  }
  return undefined;
}
