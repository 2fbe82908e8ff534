/**
 * The minimax agent's options, declared once like the MCTS table (params.ts): the spec parser,
 * canonical specs, the help texts, the API's agent catalogue and the cost estimate read this.
 */
import { choiceParam as choice, formatParam, integerParam as integer, numberParam as number, parameterRow, type ParamDef } from '../params.js';

/**
 * The defaults depth=4, worlds=1 are the strongest per millisecond of the depth × worlds grid
 * against two rulebased (docs/agents.md#minimax, seeds 7,000,000 on): the depth that reaches the
 * agent's own next move, and one world, as strong there as 4 or 16 at a quarter of the time.
 */
export const MINIMAX_PARAMETERS = {
  depth: integer('depth', 'search depth (plies)', 1, 12, 4, "plies searched: one ply is one seat's choice, the seats of a turn choosing one after another from the agent's own (3 plies at 3 players: one whole turn); a turn the depth cuts is completed with each remaining seat's first move in the ordering"),
  worlds: integer('worlds', 'determinized worlds', 1, 1000, 1, "worlds sampled once per decision as MCTS samples them (everything the seat cannot know redrawn); each is searched to the same depth, and the move with the highest summed value over the worlds is played (Vermes's averaging over clairvoyance)"),
  eval: choice('eval', 'evaluation', ['est', 'vp'], 'est', "a position's value to a seat: vp, its score as if the game ended now; est, that score plus the Age's conflicts fought with today's shields, 1/0.5/0 VP per unit of resource production in Age I/II/III, and coins counted as coins/3 instead of whole thirds"),
  search: choice('search', 'search', ['paranoid', 'maxn'], 'paranoid', "paranoid: every other seat minimizes the agent's margin (its value minus the best other seat's), with alpha-beta pruning; maxn: each seat maximizes its own margin (max-n, no pruning)"),
  keep: integer('keep', 'moves kept per node', 0, 64, 4, "forward pruning: below the root only the first `keep` moves of the ordering are searched (0: all); the root searches all its moves. Ordering: the thesis's rule-based ranking (rules 1–7, blue cards by VP, a wonder stage as rule 4, a discard last), one stage and one discard per seat as MCTS's grouped arms (the bury rule's card)"),
  time: number('time', 'time limit (s)', 0, 86_400, 10, 'cap on the seconds one decision may take (0: none): iterative deepening from depth 1, and a depth the cap cuts is dropped for the last complete one; a decision it cuts short is counted'),
} as const;

export type MinimaxParams = { -readonly [K in keyof typeof MINIMAX_PARAMETERS]: (typeof MINIMAX_PARAMETERS)[K]['default'] };
export type MinimaxField = keyof MinimaxParams;

export const MINIMAX_AGENT = {
  kind: 'minimax',
  summary: 'minimax over determinized worlds (Vermes\'s Sagrada agent, read for 7 Wonders): paranoid alpha-beta or max-n over sequentialized turns, forward pruning, iterative deepening under a time cap',
  docs: 'docs/agents.md#minimax',
} as const;

export const MINIMAX_LIST: readonly (ParamDef & { field: MinimaxField })[] = (Object.keys(MINIMAX_PARAMETERS) as MinimaxField[]).map((field) => ({ ...MINIMAX_PARAMETERS[field], field }));

export function minimaxDefaults(): MinimaxParams {
  const params = {} as Record<MinimaxField, unknown>;
  for (const def of MINIMAX_LIST) params[def.field] = def.default;
  return params as MinimaxParams;
}

/** The table as data, for the API and the dashboard. */
export function minimaxTable() {
  return MINIMAX_LIST.map((def) => ({
    ...parameterRow(def),
    default: formatParam(def.default),
    meaning: def.meaning,
  }));
}
