/**
 * One game between agents: the plan that fixes it (seeds, boards, seat order) and the summary a
 * tournament keeps of it. Everything a game does follows from its plan, so a plan replayed gives
 * the same summary (decision times aside).
 */
import { createAgent, canonicalSpec, decisionContext, parseAgentSpec, type Agent } from '../../agents/index.js';
import {
  BOARDS,
  CARDS,
  Rng,
  actingSeats,
  cityView,
  gameResult,
  legalMoves,
  newGame,
  logStep,
  recordFromLog,
  startLog,
  step,
  type GameRecord,
  type GameState,
  type LoggedSearch,
  type MoveLog,
  type ScoreBreakdown,
  type SideChoice,
} from '../../engine/index.js';
import { loggedSearch } from './recorded-search.js';
import { deriveSeed } from './setups.js';

export interface GamePlan {
  /** Unique within a tournament: set, deal and seat order. */
  id: string;
  /** Position in the tournament's order (0-based). */
  index: number;
  /** Seed of the deal: card shuffles (and boards and sides when not fixed). */
  seed: number;
  /** Index of the board set, or −1 when boards are drawn per deal. */
  set: number;
  deal: number;
  /** Index into the tournament's seat orders. */
  seating: number;
  /** Agent spec per seat, as given. */
  agents: string[];
  /** Board id per seat, or undefined to draw them from the seed. */
  boards?: number[];
  sides: SideChoice | 'random';
  /** Every hand visible to every agent. */
  open: boolean;
  /** The board set gives two seats the same board (the 2014 paper's duplicated boards). */
  duplicateBoards?: boolean;
  /**
   * The sha256 each model its agents read must have (its sweep's record, SweepOptions.models): a
   * file changed since fails the game (AgentOptions.models); absent, the files are played as they are.
   */
  models?: Readonly<Record<string, string>>;
}

export interface PlayerSummary {
  seat: number;
  /** The agent spec as given. */
  agent: string;
  /** The same agent in canonical keyed form. */
  canonical: string;
  wonder: string;
  city: string;
  side: SideChoice;
  score: ScoreBreakdown;
  coins: number;
  stages: number;
  /** Card names in the order built. */
  built: string[];
  /** Strictly the most VP (the papers' win). */
  winner: boolean;
  /** 1-based by VP then coins; tied seats share the better rank. */
  rank: number;
  decisions: number;
  /** Mean wall time of one decision, milliseconds. */
  decisionMs: number;
  /** MCTS iterations over the game (0 for other agents). */
  iterations: number;
  /** Decisions a time limit cut short. */
  cutShort: number;
}

/** A played game: where it stands in its tournament (as its plan says), then how it went. */
export interface GameSummary extends Pick<GamePlan, 'id' | 'index' | 'seed' | 'set' | 'deal' | 'seating'> {
  players: PlayerSummary[];
  /** Winners by the rulebook (most VP, then most coins). */
  winners: number[];
  decidedBy: 'vp' | 'coins' | 'shared';
  open: boolean;
  /**
   * Seats whose outside agent failed during the game with fault=forfeit in its spec: from that
   * decision on `random` played the seat (agents/external/agent.ts). Absent when none did.
   */
  forfeits?: { seat: number; reason: string }[];
  /** The game's moves (and MCTS decisions' search statistics), when asked for: recordFromLog gives the full record. */
  log?: MoveLog;
}

/** A summary as a reader wants it: with the game's full record in place of its move log. */
export type SummaryWithRecord = Omit<GameSummary, 'log'> & { record?: GameRecord };

/**
 * The summary of a game this process played, with its log replayed into the full record
 * (recordFromLog, its moves checked as they were played); as it is without a log.
 */
export function withRecord(summary: GameSummary): SummaryWithRecord {
  const { log, ...rest } = summary;
  return log ? { ...rest, record: recordFromLog(log, { checked: true }) } : rest;
}

/**
 * What a game keeps of its moves: nothing (false), its move log with each MCTS decision's most
 * visited root moves (true), or with every root move ('training': the whole visit distribution,
 * for training rows; a sweep's `training` field).
 */
export type RecordKeeping = boolean | 'training';

export interface PlayOptions {
  /** Keep the full move record in the summary, with each MCTS decision's root statistics. */
  record?: RecordKeeping;
}

/** Per seat of a game: its decisions, their wall time (ms), MCTS iterations and decisions cut short. */
export interface SeatEffort {
  decisions: readonly number[];
  thinking: readonly number[];
  iterations: readonly number[];
  cutShort: readonly number[];
}

/** Every seat's summary of the finished game s, played by `agents` (as given, and canonical). */
export function playerSummaries(s: GameState, agents: readonly string[], canonical: readonly string[], effort: SeatEffort): PlayerSummary[] {
  const result = gameResult(s);
  const best = Math.max(...result.scores.map((x) => x.total));
  const atBest = result.scores.filter((x) => x.total === best).length;
  return agents.map((agent, seat) => {
    const board = BOARDS[s.board[seat]];
    return {
      seat,
      agent,
      canonical: canonical[seat],
      wonder: board.wonder,
      city: board.city,
      side: s.side[seat] === 0 ? 'A' : 'B',
      score: result.scores[seat],
      coins: s.coins[seat],
      stages: s.stages[seat],
      built: Array.from(cityView(s, seat), (c) => CARDS[c].name),
      winner: result.scores[seat].total === best && atBest === 1,
      rank: result.ranks[seat],
      decisions: effort.decisions[seat],
      decisionMs: effort.decisions[seat] ? effort.thinking[seat] / effort.decisions[seat] : 0,
      iterations: effort.iterations[seat],
      cutShort: effort.cutShort[seat],
    };
  });
}

export function playGame(plan: GamePlan, options: PlayOptions = {}): GameSummary {
  const n = plan.agents.length;
  const config = { players: n, seed: plan.seed, boards: plan.boards, sides: plan.sides, ...(plan.duplicateBoards ? { duplicateBoards: true } : {}) };
  const s = newGame(config);
  const specs = plan.agents.map((text) => parseAgentSpec(text));
  // A record explains MCTS moves; without one, the agents gather no statistics.
  const agents: Agent[] = specs.map((spec) => createAgent(spec, { searchStatistics: options.record === 'training' ? 'all' : options.record, models: plan.models }));
  const rngs = specs.map((_, seat) => new Rng(deriveSeed(plan.seed, plan.seating, seat, 'agent')));
  const decisions = new Array<number>(n).fill(0);
  const thinking = new Array<number>(n).fill(0);
  const iterations = new Array<number>(n).fill(0);
  const cutShort = new Array<number>(n).fill(0);
  const log = options.record ? startLog(config) : undefined;
  const moves = new Array<number>(n).fill(0);
  const searches = new Array<Omit<LoggedSearch, 'at'> | undefined>(n);
  // A finished or failed game is ended for every agent (an outside agent's process forgets it).
  try {
    while (!s.isOver()) {
      for (const seat of actingSeats(s)) {
        const agent = agents[seat];
        const legal = legalMoves(s, seat, agent.moveMode, []);
        const started = performance.now();
        const decision = agent.decide(decisionContext(s, seat, legal, rngs[seat], plan.open));
        const ms = performance.now() - started;
        thinking[seat] += ms;
        searches[seat] = decision.search && loggedSearch(decision.search, ms);
        decisions[seat]++;
        iterations[seat] += decision.iterations ?? 0;
        if (decision.cutShort) cutShort[seat]++;
        if (!legal.includes(decision.move)) {
          throw new Error(`game ${plan.id}: agent '${plan.agents[seat]}' at seat ${seat} chose an illegal move (${decision.move})`);
        }
        moves[seat] = decision.move;
      }
      if (log) logStep(log, s, moves, searches);
      step(s, moves);
    }
  } finally {
    for (const agent of agents) agent.endGame?.();
  }
  const result = gameResult(s);
  const players = playerSummaries(s, plan.agents, specs.map((s) => canonicalSpec(s)), { decisions, thinking, iterations, cutShort });
  const forfeits = agents.flatMap((agent, seat) => {
    const reason = agent.forfeited?.();
    return reason === undefined ? [] : [{ seat, reason }];
  });
  return {
    id: plan.id,
    index: plan.index,
    seed: plan.seed,
    set: plan.set,
    deal: plan.deal,
    seating: plan.seating,
    players,
    winners: result.winners,
    decidedBy: result.decidedBy,
    open: plan.open,
    ...(forfeits.length ? { forfeits } : {}),
    ...(log ? { log } : {}),
  };
}
