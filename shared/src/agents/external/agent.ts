/**
 * An outside agent in a seat (`ext(name=…, key=value…)`): each decision goes to its process over
 * the protocol's JSON lines (docs/agent-protocol.md) — the observation (the env's bytes, base64),
 * the action mask and the legal moves in words, the time budget — and the answer is one of the
 * legal actions. The rules never leave the engine: the agent only chooses among the moves the
 * engine listed. Whatever the agent does wrong is an AgentFault naming it and what it did; the
 * game fails with it (the lab's other games go on).
 */
import { ACTION_NAMES, BOARDS, CARDS, Rng, moveAction, moveCard, movePayLeft, movePayRight } from '../../engine/index.js';
import { ACTION_COUNT, actionIndex, actionParts, observationSize } from '../encoding.js';
import type { Agent, AgentOptions, Decision, DecisionContext, RootMoveStatistics, SearchStatistics } from '../types.js';
import { SEARCH_TOP_MOVES } from '../mcts/statistics.js';
import { AgentFault, AgentProcess } from './agent-process.js';
import { PROTOCOL_VERSION, findAgent, type InstalledAgent } from './manifest.js';
import { actFrame, jsonFrame, readFrame } from './frames.js';

/** The budget of a decision when the spec gives no `time` (seconds). */
export const DEFAULT_EXT_TIME = 1;
/** A decision may take this many times its budget before the process is killed. */
export const DEADLINE_FACTOR = 2;
/** The handshake's deadline: an interpreter and its imports start within it. */
export const HELLO_MS = 20_000;

/** The processes of this thread, by agent and parameters, least recently used first (module state: one set per game thread). */
const processes = new Map<string, AgentProcess>();
/**
 * Processes a game thread keeps at most: more than a game's seven seats, few enough that a tune
 * (a new parameter set every step) or the play page's hints do not pile processes up.
 */
const KEEP_PROCESSES = 8;
/** Games started in this thread: a game's number is unique within its process's life. */
let games = 0;

/** Every action index in words, for the handshake: what an agent speaking frames names the packed moves by. */
const ACTIONS = Array.from({ length: ACTION_COUNT }, (_, a) => {
  const { card, kind } = actionParts(a);
  return { card: CARDS[card].name, kind };
});

/** A process's key: its agent and parameter set. */
const processKey = (agent: InstalledAgent, params: Readonly<Record<string, string>>) => `${agent.manifest.name}\0${JSON.stringify(params)}`;

function processFor(agent: InstalledAgent, params: Readonly<Record<string, string>>, label: string): AgentProcess {
  const key = processKey(agent, params);
  const held = processes.get(key);
  processes.delete(key);
  // One that ended between games (or failed) is closed: the next game starts a fresh one.
  if (held && !held.gone && !held.exited) {
    processes.set(key, held);
    return held;
  }
  held?.kill('ended');
  for (const [oldest, p] of processes) {
    if (processes.size < KEEP_PROCESSES) break;
    p.kill('closed: the thread keeps fewer processes');
    processes.delete(oldest);
  }
  const p = new AgentProcess(agent, label);
  processes.set(key, p);
  if (p.gone) throw new AgentFault(`${label} ${p.gone}`);
  const hello = parse(p, p.ask(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, agent: agent.manifest.name, params, framings: ['jsonl', 'binary'], actions: ACTIONS }), HELLO_MS, 'starting'), 'hello');
  if (hello.protocol !== PROTOCOL_VERSION) {
    p.kill(`speaks protocol ${JSON.stringify(hello.protocol)}, the lab ${PROTOCOL_VERSION}`);
    throw new AgentFault(`${label} ${p.gone}`);
  }
  if (hello.framing === 'binary') p.useFrames();
  else if (hello.framing !== undefined && hello.framing !== 'jsonl') {
    p.kill(`asked for framing ${JSON.stringify(hello.framing)} (the lab speaks jsonl and binary): killed`);
    throw new AgentFault(`${label} ${p.gone}`);
  }
  return p;
}

/** One answer (a line, or a frame's payload) as a message of the type expected (AgentFault otherwise, and the process killed). */
function parse(p: AgentProcess, answer: string | Uint8Array, type: string): Record<string, unknown> {
  let msg: unknown;
  if (typeof answer === 'string') {
    try {
      msg = JSON.parse(answer);
    } catch {
      msg = undefined;
    }
  } else msg = readFrame(answer);
  if (typeof msg !== 'object' || msg === null || (msg as { type?: unknown }).type !== type) {
    const shown = typeof answer === 'string' ? JSON.stringify(answer.slice(0, 120)) : `a frame of ${answer.length} bytes, kind ${answer[0]}`;
    p.kill(`printed ${shown} where a "${type}" message was due: killed`);
    throw new AgentFault(`${p.label} ${p.gone}`);
  }
  return msg as Record<string, unknown>;
}

/**
 * The search statistics an answer may carry (`stats`: `moves`, each an action with its `visits`
 * and `value` in [0, 1], and `iterations`), as the lab's own searches report theirs — for the
 * records, the replay and the play page's "why". Statistics that do not fit are left out, never a
 * fault: they explain a move, they do not make it.
 */
function searchOf(stats: unknown, byAction: ReadonlyMap<number, number>, played: number, all: boolean): SearchStatistics | undefined {
  if (typeof stats !== 'object' || stats === null || !Array.isArray((stats as { moves?: unknown }).moves)) return undefined;
  const moves: RootMoveStatistics[] = [];
  for (const m of (stats as { moves: unknown[] }).moves) {
    if (typeof m !== 'object' || m === null) return undefined;
    const { action, visits, value } = m as Record<string, unknown>;
    const move = typeof action === 'number' ? byAction.get(action) : undefined;
    if (move === undefined || !Number.isInteger(visits) || (visits as number) < 0 || typeof value !== 'number' || !(value >= 0 && value <= 1)) return undefined;
    moves.push({ move, visits: visits as number, value });
  }
  moves.sort((a, b) => b.visits - a.visits);
  const kept = all ? moves : moves.slice(0, SEARCH_TOP_MOVES);
  // The move played is always among those kept, as the lab's searches keep it.
  if (!kept.some((m) => m.move === played)) {
    const own = moves.find((m) => m.move === played);
    if (own) kept[kept.length - 1] = own;
  }
  const given = (stats as { iterations?: unknown }).iterations;
  const iterations = Number.isInteger(given) && (given as number) >= 0 ? (given as number) : moves.reduce((s, m) => s + m.visits, 0);
  return { iterations, moves: kept };
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export class ExternalAgent implements Agent {
  readonly moveMode = 'cheapest' as const;
  private readonly agent: InstalledAgent;
  private readonly label: string;
  private readonly budgetMs: number;
  private process: AgentProcess | undefined;
  private game: number | undefined;
  private obs: Uint8Array | undefined;
  private readonly mask = new Uint8Array(ACTION_COUNT);
  private requests = 0;
  private seat = -1;
  /** Whether this game's process was kept from an earlier game (rather than started for this one). */
  private reused = false;
  /** Why the seat forfeited this game (fault=forfeit), once it has. */
  private forfeit: string | undefined;

  constructor(
    name: string,
    private readonly params: Readonly<Record<string, string>>,
    private readonly options: AgentOptions = {},
  ) {
    this.agent = findAgent(name);
    this.label = `outside agent '${name}'`;
    this.budgetMs = 1000 * (params.time !== undefined ? Number(params.time) : DEFAULT_EXT_TIME);
  }

  decide(ctx: DecisionContext): Decision {
    if (this.forfeit !== undefined) return { move: ctx.legal[ctx.rng.int(ctx.legal.length)] };
    try {
      try {
        return this.ask(ctx);
      } catch (err) {
        // A process kept from an earlier game that ended before this game's first answer (it
        // exited as that game ended, say): not this game's fault. Once, with a fresh process.
        if (!(err instanceof AgentFault) || this.requests !== 1 || !this.reused || !this.process?.exited) throw err;
        this.process = undefined;
        this.game = undefined;
        this.requests = 0;
        return this.ask(ctx);
      }
    } catch (err) {
      if (!(err instanceof AgentFault) || this.params.fault !== 'forfeit') throw err;
      // The spec said so: the seat forfeits, random plays it on (from the seat's own generator), the game is marked.
      this.forfeit = err.message;
      return { move: ctx.legal[ctx.rng.int(ctx.legal.length)] };
    }
  }

  forfeited(): string | undefined {
    return this.forfeit;
  }

  private ask(ctx: DecisionContext): Decision {
    if (!this.process) {
      const had = processes.get(processKey(this.agent, this.params));
      this.process = processFor(this.agent, this.params, this.label);
      this.reused = this.process === had;
    }
    const p = this.process;
    if (this.game === undefined) {
      this.game = ++games;
      this.seat = ctx.seat;
      const me = ctx.observe().seats[ctx.seat];
      // The agent's own randomness: the state of the generator the lab gives this seat (sfc32), and a seed
      // drawn from a copy of it (the seat's generator itself is left as it is: a forfeit plays random from it).
      const rng = Array.from(ctx.rng.s);
      const game = { type: 'game', game: this.game, seat: ctx.seat, players: ctx.players, wonder: BOARDS[me.board].city, side: me.side === 0 ? 'A' : 'B', seed: new Rng(Uint32Array.from(ctx.rng.s)).fork().nextU32(), rng };
      p.send(p.framed ? jsonFrame(game) : JSON.stringify(game));
      this.obs = new Uint8Array(observationSize(ctx.players));
    }
    ctx.writeObservation(this.obs!);
    const byAction = new Map<number, number>();
    const id = ++this.requests;
    let request: string | Uint8Array;
    let legal: { action: number; left: number; right: number }[];
    if (p.framed) {
      legal = ctx.legal.map((m) => {
        const action = actionIndex(m);
        byAction.set(action, m);
        return { action, left: movePayLeft(m), right: movePayRight(m) };
      });
      request = actFrame({ id, game: this.game, seat: ctx.seat, age: ctx.age, players: ctx.players, budgetMs: this.budgetMs, observation: this.obs!, legal });
    } else {
      this.mask.fill(0);
      legal = ctx.legal.map((m) => {
        const action = actionIndex(m);
        this.mask[action] = 1;
        byAction.set(action, m);
        return { action, card: CARDS[moveCard(m)].name, kind: ACTION_NAMES[moveAction(m)], left: movePayLeft(m), right: movePayRight(m) };
      });
      request = JSON.stringify({ type: 'act', id, game: this.game, seat: ctx.seat, age: ctx.age, players: ctx.players, budget_ms: this.budgetMs, observation: base64(this.obs!), mask: base64(this.mask), legal });
    }
    const answer = parse(p, p.ask(request, DEADLINE_FACTOR * this.budgetMs, `deciding move ${id}`), 'move');
    if (answer.id !== id || answer.game !== this.game) {
      p.kill(`answered ${JSON.stringify({ id: answer.id, game: answer.game })} to request ${id} of game ${this.game}: killed`);
      throw new AgentFault(`${this.label} ${p.gone}`);
    }
    const move = typeof answer.action === 'number' ? byAction.get(answer.action) : undefined;
    if (move === undefined) {
      p.kill(`chose action ${JSON.stringify(answer.action)}, not one of the ${legal.length} legal (${legal.map((l) => l.action).join(', ')}): killed`);
      throw new AgentFault(`${this.label} ${p.gone}`);
    }
    const search = this.options.searchStatistics ? searchOf(answer.stats, byAction, move, this.options.searchStatistics === 'all') : undefined;
    return search ? { move, iterations: search.iterations, search } : { move };
  }

  /** The game is over (or failed): the agent may forget it. */
  endGame(): void {
    const p = this.process;
    if (this.game !== undefined && p && !p.gone) {
      const end = { type: 'end', game: this.game, seat: this.seat };
      p.send(p.framed ? jsonFrame(end) : JSON.stringify(end));
    }
    this.game = undefined;
  }
}
