/**
 * A game with one person at the table (the play page): the other seats are agents, the engine
 * decides what is legal, and the game is kept as its move log, so that it can be rebuilt from the
 * log alone (after a restart) and its record replays with `wonderlab replay`.
 *
 * The person's move is checked against the engine's legal moves ('all' payments: any undominated
 * split between the neighbours); a move that is not legal is refused with a PlayError and changes
 * nothing. The agents of the same step decide on the same state as the person did (simultaneous
 * choice: none sees another's move), then the step is applied, and the agents play on alone
 * through the steps where the person does not act (another seat's seventh card or discard build).
 */
import { canonicalSpec, createAgent, decisionContext, parseAgentSpec, type Agent, type SearchStatistics } from '../../agents/index.js';
import {
  ACTION_DISCARD,
  ACTION_NAMES,
  ACTION_STAGE,
  PHASE_NAMES,
  Rng,
  actingSeats,
  decodeMove,
  gameResult,
  isLegalMove,
  legalMoves,
  logStep,
  moveAction,
  newGame,
  recordFromLog,
  startLog,
  step,
  type DecodedMove,
  type GameConfig,
  type GameRecord,
  type GameState,
  type LoggedSearch,
  type MoveLog,
  type SideChoice,
} from '../../engine/index.js';
import { playerSummaries, type GameSummary } from '../game/game.js';
import { loggedSearch } from '../game/recorded-search.js';
import { deriveSeed } from '../game/setups.js';
import { playView, type PlayView } from './view.js';

/** The agent name of the person's seat in records and summaries. */
export const HUMAN = 'human';

export interface PlaySetup {
  players: number;
  /** The person's seat. */
  seat: number;
  /** An agent spec per seat; `human` at the person's seat. */
  agents: string[];
  seed: number;
  /** A city per seat (name or alias), or random boards when absent. */
  boards?: string[];
  sides?: SideChoice | 'random';
  /** The finished game counts on the lab's ladder (the person as `human`). */
  ladder?: boolean;
}

/**
 * A refused request: the message says what is wrong, the game is unchanged. `code` names the
 * request's field (it is what crosses from the play thread with the message).
 */
export class PlayError extends Error {
  readonly code?: string;

  constructor(message: string, field?: string) {
    super(message);
    this.name = 'PlayError';
    this.code = field;
  }
}

/** One step of the game as the person may see it. */
export interface PublicStep {
  age: number;
  turn: number;
  phase: (typeof PHASE_NAMES)[number];
  moves: PublicMove[];
}

export interface PublicMove {
  seat: number;
  action: (typeof ACTION_NAMES)[number];
  /** The card, unless it went face down (another seat's stage or discard). */
  card?: string;
  payLeft: number;
  payRight: number;
  /**
   * The agent's root statistics when it searched (the replay's data), moves named. While the game
   * is on, another seat's search shows only what the table could see: its effort and the move it
   * played (face down as the move is), not the other moves of its hand (`hidden`).
   */
  search?: Omit<LoggedSearch, 'at' | 'moves'> & { moves: (Omit<LoggedSearch['moves'][number], 'move'> & { move: DecodedMove })[]; hidden?: true };
}

export interface HintResult {
  agent: string;
  move: DecodedMove & { code: number };
  search?: PublicMove['search'];
  ms: number;
}

/** The setup as the engine takes it. */
export function gameConfig(setup: PlaySetup): GameConfig {
  return { players: setup.players, seed: setup.seed, ...(setup.boards ? { boards: setup.boards } : {}), ...(setup.sides ? { sides: setup.sides } : {}) };
}

/** Checks a setup (PlayError naming the field): the seat, an agent spec per other seat, the boards. */
export function checkPlaySetup(setup: PlaySetup): void {
  const n = setup.players;
  if (setup.agents.length !== n) throw new PlayError(`expected ${n} agents (one per seat, '${HUMAN}' at yours), got ${setup.agents.length}`, 'agents');
  if (setup.agents[setup.seat] !== HUMAN) throw new PlayError(`agents.${setup.seat}: your seat's agent must be '${HUMAN}'`, `agents.${setup.seat}`);
  setup.agents.forEach((text, q) => {
    if (q === setup.seat) return;
    if (text === HUMAN) throw new PlayError(`agents.${q}: one person per game: '${HUMAN}' only at seat ${setup.seat}`, `agents.${q}`);
    try {
      parseAgentSpec(text);
    } catch (err) {
      throw new PlayError(`agents.${q}: ${(err as Error).message}`, `agents.${q}`);
    }
  });
  try {
    newGame(gameConfig(setup));
  } catch (err) {
    throw new PlayError((err as Error).message, 'boards');
  }
}

const isPublic = (action: number) => action !== ACTION_STAGE && action !== ACTION_DISCARD;

export class PlayTable {
  readonly state: GameState;
  readonly log: MoveLog;
  /** Each agent seat's agent, made when it first acts (a view alone never makes one). */
  private readonly agents: (Agent | undefined)[];
  private readonly rngs: Rng[];
  /** Each step's age, turn and phase, and where its moves start in the log. */
  private readonly steps: { age: number; turn: number; phase: number; at: number; seats: number[] }[] = [];
  private readonly moves: Int32Array;

  /** A new game, or (given a log) the game the log's moves lead to, with fresh agents. */
  constructor(
    readonly setup: PlaySetup,
    log?: MoveLog,
  ) {
    checkPlaySetup(setup);
    const config = gameConfig(setup);
    this.state = newGame(config);
    this.moves = new Int32Array(setup.players);
    this.agents = setup.agents.map(() => undefined);
    // Seeded as a lab game's agents are, so that a game is repeated by its setup and moves.
    this.rngs = setup.agents.map((_, q) => new Rng(deriveSeed(setup.seed, 0, q, 'agent')));
    this.log = startLog(config);
    if (log) this.restore(log);
    this.advance();
  }

  private restore(log: MoveLog): void {
    const s = this.state;
    let at = 0;
    while (!s.isOver() && at < log.moves.length) {
      const seats = actingSeats(s);
      for (const q of seats) {
        const code = log.moves[at + seats.indexOf(q)];
        if (code === undefined || !isLegalMove(s, q, code)) throw new PlayError(`the stored game's move ${at} is not legal: it cannot be restored`);
        this.moves[q] = code;
      }
      this.steps.push({ age: s.age, turn: s.turn, phase: s.phase, at, seats });
      at += seats.length;
      step(s, this.moves);
    }
    this.log.moves.push(...log.moves.slice(0, at));
    this.log.searches.push(...log.searches.filter((x) => x.at < at));
  }

  get over(): boolean {
    return this.state.isOver();
  }

  /** Whether the game waits for the person. */
  get waiting(): boolean {
    return !this.over && actingSeats(this.state).includes(this.setup.seat);
  }

  /** Plays the agents' steps until the person acts or the game ends (then the agents are done with it). */
  private advance(): void {
    while (!this.over && !this.waiting) this.playStep(undefined);
    if (this.over) this.release();
  }

  /** The game is over here, or dropped from memory: each agent ends it (an outside agent's process forgets it). */
  release(): void {
    for (const agent of this.agents) agent?.endGame?.();
  }

  /** One step: the person's move (when they act) and every acting agent's, applied together. */
  private playStep(human: number | undefined): void {
    const s = this.state;
    const seats = actingSeats(s);
    const searches: (Omit<LoggedSearch, 'at'> | undefined)[] = [];
    for (const q of seats) {
      if (q === this.setup.seat) {
        this.moves[q] = human!;
        continue;
      }
      const agent = (this.agents[q] ??= createAgent(this.setup.agents[q], { searchStatistics: true }));
      const legal = legalMoves(s, q, agent.moveMode, []);
      const started = performance.now();
      const decision = agent.decide(decisionContext(s, q, legal, this.rngs[q], false));
      if (!legal.includes(decision.move)) throw new Error(`agent '${this.setup.agents[q]}' at seat ${q} chose an illegal move (${decision.move})`);
      searches[q] = decision.search && loggedSearch(decision.search, performance.now() - started);
      this.moves[q] = decision.move;
    }
    this.steps.push({ age: s.age, turn: s.turn, phase: s.phase, at: this.log.moves.length, seats });
    logStep(this.log, s, this.moves, searches);
    step(s, this.moves);
  }

  /** The person plays `move` (a code from the view); PlayError when it is not theirs to play. */
  play(move: unknown): void {
    if (this.over) throw new PlayError('the game is over', 'move');
    if (!this.waiting) throw new PlayError('it is not your move', 'move');
    if (typeof move !== 'number' || !Number.isInteger(move) || !isLegalMove(this.state, this.setup.seat, move)) {
      throw new PlayError(`move: ${JSON.stringify(move)} is not one of your legal moves now (see the view's hand)`, 'move');
    }
    this.playStep(move);
    this.advance();
  }

  /** What `spec` would play in the person's place, from their information only (hintAt). */
  hint(spec: string): HintResult {
    if (!this.waiting) throw new PlayError('a hint is for your move: it is not your move now', 'agent');
    return hintAt(this.state, this.setup.seat, spec, deriveSeed(this.setup.seed, this.log.moves.length, this.setup.seat, 'hint'));
  }

  /**
   * The person's view, with the public log: other seats' face-down cards hidden, and their
   * searches reduced to what the table saw until the game is over (then the whole game is public).
   */
  view(): PlayView & { log: PublicStep[]; result?: GameSummary; version: number } {
    const searches = new Map(this.log.searches.map((x) => [x.at, x]));
    const over = this.over;
    const log = this.steps.map((st): PublicStep => ({
      age: st.age,
      turn: st.turn,
      phase: PHASE_NAMES[st.phase],
      moves: st.seats.map((q, k) => {
        const code = this.log.moves[st.at + k];
        const a = moveAction(code);
        const d = decodeMove(code);
        const seen = q === this.setup.seat || isPublic(a);
        const search = searches.get(st.at + k);
        return {
          seat: q,
          action: d.action,
          ...(seen ? { card: d.card } : {}),
          payLeft: d.payLeft,
          payRight: d.payRight,
          ...(search ? { search: over || q === this.setup.seat ? namedSearch(search) : publicSearch(search, code, seen) } : {}),
        };
      }),
    }));
    return { ...playView(this.state, this.setup.seat, this.setup.agents), version: this.log.moves.length, log, ...(over ? { result: this.summary() } : {}) };
  }

  /** The finished game as the lab stores a game: summary and (with the record) the replayable record. */
  summary(): GameSummary {
    const s = this.state;
    const result = gameResult(s);
    const n = s.n;
    const effort = { decisions: new Array<number>(n).fill(0), thinking: new Array<number>(n).fill(0), iterations: new Array<number>(n).fill(0), cutShort: new Array<number>(n).fill(0) };
    const seatAt = new Map<number, number>();
    for (const st of this.steps) {
      st.seats.forEach((q, k) => {
        effort.decisions[q]++;
        seatAt.set(st.at + k, q);
      });
    }
    for (const x of this.log.searches) {
      const q = seatAt.get(x.at)!;
      effort.thinking[q] += x.ms;
      effort.iterations[q] += x.iterations;
    }
    const canonical = this.setup.agents.map((text) => (text === HUMAN ? HUMAN : canonicalSpec(parseAgentSpec(text))));
    const players = playerSummaries(s, this.setup.agents, canonical, effort);
    return { id: 'play', index: 0, seed: this.setup.seed, set: -1, deal: 0, seating: 0, players, winners: result.winners, decidedBy: result.decidedBy, open: false };
  }

  /** The full record of the finished game (replays with `wonderlab replay`). */
  record(): GameRecord {
    if (!this.over) throw new PlayError('the game is not over: its record is kept once it ends');
    return recordFromLog(this.log, { checked: true });
  }
}

/**
 * What agent `spec` would play for `seat` at s: the agent samples worlds from what the seat knows,
 * with a generator seeded by `seed`, so the hint is the same whatever the hidden cards are.
 */
export function hintAt(s: GameState, seat: number, spec: string, seed: number): HintResult {
  let agent: Agent;
  try {
    agent = createAgent(parseAgentSpec(spec), { searchStatistics: true });
  } catch (err) {
    throw new PlayError(`agent: ${(err as Error).message}`, 'agent');
  }
  const legal = legalMoves(s, seat, agent.moveMode, []);
  const started = performance.now();
  let decision;
  try {
    decision = agent.decide(decisionContext(s, seat, legal, new Rng(seed), false));
  } finally {
    agent.endGame?.();
  }
  const ms = performance.now() - started;
  return {
    agent: canonicalSpec(parseAgentSpec(spec)),
    move: { code: decision.move, ...decodeMove(decision.move) },
    ...(decision.search ? { search: namedSearch(loggedSearch(decision.search as SearchStatistics, ms)) } : {}),
    ms: Math.round(ms * 10) / 10,
  };
}

/**
 * Another seat's search as the table saw it while the game is on: its effort, and the statistics of
 * the move it played alone — the card named only if the move was played face up. The other root
 * moves are cards of its hand: hidden.
 */
function publicSearch(search: Omit<LoggedSearch, 'at'>, played: number, cardSeen: boolean): PublicMove['search'] {
  const { moves, ...rest } = namedSearch(search)!;
  delete (rest as Partial<LoggedSearch>).at;
  // Read from its own hand: shown with its other moves when the game is over.
  delete (rest as Partial<LoggedSearch>).network;
  const chosen = search.moves.find((m) => m.move === played);
  const { card: _card, ...faceDown } = decodeMove(played);
  return { ...rest, moves: chosen ? [{ ...moves[search.moves.indexOf(chosen)], move: cardSeen ? decodeMove(played) : (faceDown as DecodedMove) }] : [], hidden: true };
}

/** A logged search with its moves named, as the replay shows them. */
function namedSearch(search: Omit<LoggedSearch, 'at'>): PublicMove['search'] {
  const { moves, ...rest } = search as LoggedSearch;
  delete (rest as Partial<LoggedSearch>).at;
  return { ...rest, moves: moves.map(({ move, ...m }) => ({ move: decodeMove(move), ...m })) };
}
