/**
 * `wonderlab env`: the environment server behind the Python package (python/wonderlab). It runs a
 * vector of games in one process and speaks a compact binary protocol over stdin/stdout, so that
 * Python steps many games per message and never re-implements a rule. docs/python.md describes
 * the protocol byte by byte; python/wonderlab/_server.py is its client.
 *
 * Each game has the same seats: the ones given an agent spec are played here by the lab's agents,
 * the others ("external" seats, in seat order) by the client, one action index per external seat
 * that acts (agents/encoding.ts). A game advances on its own until an external seat must act or
 * it is over.
 *
 * Frames both ways: u32 length (of what follows, little-endian), then the body. Requests start
 * with an op byte; replies with a status byte (0 ok, 1 error followed by a UTF-8 message: the
 * request changed nothing). No input ends the process but the end of input: a bad request, an
 * oversized frame, even a failure of the server's own is an error reply, and the client goes on.
 */
import { z } from 'zod';
import {
  MAX_PLAYERS,
  MIN_PLAYERS,
  Rng,
  actingSeats,
  gameResult,
  legalMoves,
  newGame,
  step,
  CARDS,
  recordFromLog,
  startLog,
  logStep,
  type GameState,
  type MoveLog,
} from '../engine/index.js';
import {
  ACTION_COUNT,
  actionParts,
  checkAgentModel,
  createAgent,
  decisionContext,
  observationSize,
  parseAgentSpec,
  writeActionMask,
  writeObservation,
  type Agent,
} from '../agents/index.js';
import { deriveSeed } from '../lab/index.js';

export const OP_OPEN = 1;
export const OP_RESET = 2;
export const OP_STEP = 3;
export const OP_RECORD = 4;

/** The ops by byte, as error messages name them. */
const OP_NAMES: Record<number, string> = { [OP_OPEN]: 'open', [OP_RESET]: 'reset', [OP_STEP]: 'step', [OP_RECORD]: 'record' };
const OPS = '1 OPEN, 2 RESET, 3 STEP, 4 RECORD';

/** The most games one OPEN runs. */
const MAX_GAMES = 4096;

/**
 * The longest request body the server takes: 4 MiB. The longest a client needs is a STEP of the
 * most games at 7 players, every seat the client's: 1 + 4096·7·4 = 114,689 bytes (a RESET of
 * every game is 49,157; an OPEN is a JSON of seven agent specs, well under a kilobyte). 4 MiB is
 * 36 times that, room for longer specs, and still small enough to hold at once. A longer length is
 * a client's bug or bytes out of step, and holding what follows it is how a bad prefix once grew
 * the process without bound: such a frame gets an error reply, and its bytes are dropped as they
 * come (FrameReader). Replies have no limit (the state block of 4096 games is tens of MB).
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** The game's seat agents by spec; null for a seat the client plays. */
const OpenRequest = z.strictObject({
  games: z.number().int().min(1).max(MAX_GAMES),
  players: z.number().int().min(MIN_PLAYERS).max(MAX_PLAYERS),
  seats: z.array(z.string().min(1).nullable()),
  seed: z.number().int().min(0).max(0xffffffff).default(0),
  sides: z.enum(['A', 'B', 'random']).default('random'),
  autoReset: z.boolean().default(false),
});
type Open = z.infer<typeof OpenRequest>;

class RequestError extends Error {}

/** One game of the vector. */
interface Game {
  s: GameState;
  seed: number;
  /** Episodes started, counting this one. */
  episodes: number;
  agents: (Agent | null)[];
  rngs: Rng[];
  log: MoveLog;
  /** The log of the game finished last (kept for the record after an automatic reset). */
  finished?: MoveLog;
  /** Per external slot and action index, the move code of a legal action. */
  moves: Int32Array;
  /** Set when the game ended in the last request (the scores below are its). */
  justEnded: boolean;
  vp: number[];
  ranks: number[];
}

export class EnvServer {
  private readonly open: Open;
  private readonly external: number[];
  private readonly games: Game[];
  readonly observationSize: number;

  constructor(request: unknown) {
    const parsed = OpenRequest.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RequestError(`open: ${issue.path.join('.') || 'request'}: ${issue.message}`);
    }
    const open = parsed.data;
    if (open.seats.length !== open.players) throw new RequestError(`open: seats: ${open.seats.length} given for ${open.players} players`);
    open.seats.forEach((spec, seat) => {
      if (spec === null) return;
      try {
        const agent = parseAgentSpec(spec);
        checkAgentModel(agent, open.players);
      } catch (e) {
        throw new RequestError(`open: seats.${seat}: ${(e as Error).message}`);
      }
    });
    this.open = open;
    this.external = open.seats.flatMap((spec, seat) => (spec === null ? [seat] : []));
    this.observationSize = observationSize(open.players);
    this.games = Array.from({ length: open.games }, (_, g) => this.start(g, this.sequenceSeed(g, 0), 1));
  }

  /** What the client needs to size its arrays. */
  describe(): Record<string, unknown> {
    return {
      games: this.open.games,
      players: this.open.players,
      external: this.external,
      observationSize: this.observationSize,
      actionCount: ACTION_COUNT,
      cards: CARDS.map((c) => c.name),
      actionNames: ACTION_NAMES,
    };
  }

  /** Episode k of game g, when not given a seed: base + k·games + g (mod 2³²). */
  private sequenceSeed(g: number, episode: number): number {
    return (this.open.seed + episode * this.open.games + g) >>> 0;
  }

  private start(g: number, seed: number, episodes: number, finished?: MoveLog): Game {
    const config = { players: this.open.players, seed, sides: this.open.sides };
    const s = newGame(config);
    const game: Game = {
      s,
      seed,
      episodes,
      // The lab's own seeding (lab/game/game.ts, seating 0): a game whose seats are all agents is
      // the lab's game of that seed.
      agents: this.open.seats.map((spec) => (spec === null ? null : createAgent(spec))),
      rngs: this.open.seats.map((_, seat) => new Rng(deriveSeed(seed, 0, seat, 'agent'))),
      log: startLog(config),
      finished,
      moves: new Int32Array(this.external.length * ACTION_COUNT),
      justEnded: false,
      vp: [],
      ranks: [],
    };
    this.advance(game, new Int32Array(this.external.length).fill(-1));
    return game;
  }

  /**
   * Plays the game on: first a step with the external seats' actions (when any acts), then steps
   * of the agents alone until an external seat must act or the game ends.
   */
  private advance(game: Game, actions: Int32Array): void {
    const { s } = game;
    const moves = new Int32Array(this.open.players);
    let first = true;
    while (!s.isOver()) {
      const acting = actingSeats(s);
      const waits = acting.some((seat) => game.agents[seat] === null);
      if (waits && !first) return;
      if (waits && !this.external.some((seat, e) => acting.includes(seat) && actions[e] >= 0)) return;
      for (const seat of acting) {
        const agent = game.agents[seat];
        if (agent === null) {
          const e = this.external.indexOf(seat);
          moves[seat] = game.moves[e * ACTION_COUNT + actions[e]];
        } else {
          const legal = legalMoves(s, seat, agent.moveMode, []);
          moves[seat] = agent.decide(decisionContext(s, seat, legal, game.rngs[seat], false)).move;
        }
      }
      logStep(game.log, s, moves);
      step(s, moves);
      first = false;
    }
  }

  /** Checks every action before any is applied: an error leaves every game as it was. */
  private check(actions: Int32Array, masks: Uint8Array): void {
    const E = this.external.length;
    this.games.forEach((game, g) => {
      const acting = game.s.isOver() ? [] : actingSeats(game.s);
      this.external.forEach((seat, e) => {
        const a = actions[g * E + e];
        const acts = acting.includes(seat);
        const at = (g * E + e) * ACTION_COUNT;
        if (acts && a < 0) throw new RequestError(`step: game ${g}, seat ${seat}: no action given, and the seat must act`);
        if (!acts && a >= 0) throw new RequestError(`step: game ${g}, seat ${seat}: action ${a} given, but the seat does not act now`);
        if (acts && (a >= ACTION_COUNT || masks[at + a] !== 1)) {
          const legal: string[] = [];
          for (let i = 0; i < ACTION_COUNT; i++) if (masks[at + i] === 1) legal.push(`${i} (${ACTION_NAMES[i]})`);
          const named = a < ACTION_COUNT ? ACTION_NAMES[a] : `outside 0..${ACTION_COUNT - 1}`;
          throw new RequestError(`step: game ${g}, seat ${seat}: action ${a} (${named}) is not legal; legal: ${legal.join(', ')}`);
        }
      });
    });
  }

  private lastMasks?: Uint8Array;

  /** RESET: the listed games start a new episode (seed NaN: the game's next seed of its sequence). */
  reset(list: { game: number; seed: number }[]): Buffer {
    const listed = new Set<number>();
    for (const { game } of list) {
      if (!Number.isInteger(game) || game < 0 || game >= this.games.length) throw new RequestError(`reset: game ${game}: there are ${this.games.length} games (0–${this.games.length - 1})`);
      // A second reset of the same game means nothing, and refusing it bounds a request's work.
      if (listed.has(game)) throw new RequestError(`reset: game ${game} is listed twice`);
      listed.add(game);
    }
    // A seed is the deal: one the engine would take modulo 2³² (−1, 1.5, 2³² + 5) is refused, not silently another deal.
    for (const { game, seed } of list) {
      if (!Number.isNaN(seed) && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) throw new RequestError(`reset: game ${game}: seed ${seed} is not an integer from 0 to 4294967295`);
    }
    for (const { game: g, seed } of list) {
      const old = this.games[g];
      const fresh = old.log.moves.length === 0;
      // A game not begun yet (as after OPEN) is the episode a reset without a seed starts.
      const next = !Number.isNaN(seed) ? seed >>> 0 : fresh ? old.seed : this.sequenceSeed(g, old.episodes);
      this.games[g] = this.start(g, next, fresh ? old.episodes : old.episodes + 1, old.s.isOver() ? old.log : old.finished);
    }
    return this.reply();
  }

  /** STEP: one action index per game and external seat (−1 where the seat does not act). */
  stepAll(actions: Int32Array): Buffer {
    const E = this.external.length;
    if (actions.length !== this.games.length * E) throw new RequestError(`step: ${actions.length} actions given, ${this.games.length * E} expected (games × external seats)`);
    this.check(actions, this.lastMasks ?? this.masks());
    this.games.forEach((game, g) => {
      game.justEnded = false;
      if (game.s.isOver()) return;
      this.advance(game, actions.subarray(g * E, (g + 1) * E));
      if (game.s.isOver()) {
        const result = gameResult(game.s);
        game.justEnded = true;
        game.vp = result.scores.map((x) => x.total);
        game.ranks = result.ranks;
        if (this.open.autoReset) {
          const next = this.start(g, this.sequenceSeed(g, game.episodes), game.episodes + 1, game.log);
          Object.assign(next, { justEnded: true, vp: game.vp, ranks: game.ranks });
          this.games[g] = next;
        }
      }
    });
    return this.reply();
  }

  /** RECORD: the lab's game record of a game (which 0: the one in play, once over; 1: the last finished). */
  record(g: number, which: 0 | 1): Buffer {
    const game = this.games[g];
    if (!game) throw new RequestError(`record: game ${g}: there are ${this.games.length} games`);
    if (which === 0 && !game.s.isOver()) {
      // A record is the replay of a whole game (recordFromLog): a game in play has none yet.
      const instead = game.finished ? ' — ask for which=1, the last finished game' : ', and no game of it has finished yet';
      throw new RequestError(`record: game ${g} is still in play (age ${game.s.age}, turn ${game.s.turn}); its record is made once it ends${instead}`);
    }
    const log = which === 0 ? game.log : game.finished;
    if (!log) throw new RequestError(`record: game ${g} has no finished game yet`);
    const body = Buffer.from(JSON.stringify(recordFromLog(log)), 'utf8');
    return Buffer.concat([Buffer.from([0]), body]);
  }

  private masks(): Uint8Array {
    const E = this.external.length;
    const masks = new Uint8Array(this.games.length * E * ACTION_COUNT);
    this.games.forEach((game, g) => {
      const acting = game.s.isOver() ? [] : actingSeats(game.s);
      this.external.forEach((seat, e) => {
        if (acting.includes(seat)) writeActionMask(game.s, seat, masks, (g * E + e) * ACTION_COUNT, game.moves, e * ACTION_COUNT);
      });
    });
    return masks;
  }

  /**
   * The state block: status 0, 3 pad bytes, u32 games N, external seats E, observation size D,
   * action count A, players P; then i32 vp[N·P] and i32 rank[N·P] (of the game that ended in this
   * request, else 0), u32 seed[N] (of the game in play), u8 done[N] (a game ended in this
   * request), u8 over[N] (the game in play is over), u8 acting[N·E], u8 mask[N·E·A],
   * u8 observation[N·E·D].
   */
  private reply(): Buffer {
    const N = this.games.length;
    const E = this.external.length;
    const D = this.observationSize;
    const A = ACTION_COUNT;
    const P = this.open.players;
    const head = 24;
    const size = head + 4 * N * P * 2 + 4 * N + N + N + N * E + N * E * A + N * E * D;
    const buf = Buffer.alloc(size);
    buf[0] = 0;
    buf.writeUInt32LE(N, 4);
    buf.writeUInt32LE(E, 8);
    buf.writeUInt32LE(D, 12);
    buf.writeUInt32LE(A, 16);
    buf.writeUInt32LE(P, 20);
    const vp = new Int32Array(buf.buffer, buf.byteOffset + head, N * P);
    const rank = new Int32Array(buf.buffer, buf.byteOffset + head + 4 * N * P, N * P);
    const seeds = new Uint32Array(buf.buffer, buf.byteOffset + head + 8 * N * P, N);
    let at = head + 8 * N * P + 4 * N;
    const done = buf.subarray(at, (at += N));
    const over = buf.subarray(at, (at += N));
    const acting = buf.subarray(at, (at += N * E));
    const masks = buf.subarray(at, (at += N * E * A));
    const obs = buf.subarray(at, (at += N * E * D));
    this.games.forEach((game, g) => {
      seeds[g] = game.seed;
      if (game.justEnded) {
        done[g] = 1;
        for (let p = 0; p < P; p++) {
          vp[g * P + p] = game.vp[p];
          rank[g * P + p] = game.ranks[p];
        }
      }
      const isOver = game.s.isOver();
      over[g] = isOver ? 1 : 0;
      const seatsActing = isOver ? [] : actingSeats(game.s);
      this.external.forEach((seat, e) => {
        const slot = g * E + e;
        if (seatsActing.includes(seat)) {
          acting[slot] = 1;
          writeActionMask(game.s, seat, masks, slot * A, game.moves, e * A);
        }
        writeObservation(game.s, seat, obs, slot * D);
      });
    });
    this.lastMasks = masks;
    return buf;
  }
}

/** Card names that two Ages share (Loom, Glassworks, Press): their actions carry the Age. */
const SHARED_NAMES = new Set(CARDS.filter((c) => CARDS.some((o) => o !== c && o.name === c.name)).map((c) => c.name));
const AGE = ['', 'I', 'II', 'III'];

/**
 * Each action index's name, "build Lumber Yard" or "discard Loom (Age II)": sent in the OPEN reply
 * so that clients name actions in their messages without a copy of the catalogue or the encoding.
 */
const ACTION_NAMES: readonly string[] = Array.from({ length: ACTION_COUNT }, (_, a) => {
  const { card, kind } = actionParts(a);
  const c = CARDS[card];
  return `${kind} ${c.name}${SHARED_NAMES.has(c.name) ? ` (Age ${AGE[c.age]})` : ''}`;
});

function errorReply(message: string): Buffer {
  return Buffer.concat([Buffer.from([1]), Buffer.from(message, 'utf8')]);
}

/**
 * Handles one request body; returns the reply body. It never throws: a bad request is an error
 * reply naming its op and the fault, and changes nothing. So is a failure nobody foresaw (a bug)
 * in OPEN or RECORD, which change no state; one in RESET or STEP may have left the games changed
 * part-way, so it also closes the environment (setServer(undefined)) and says so, rather than go
 * on from a state no request made.
 */
export function handle(server: EnvServer | undefined, body: Buffer, setServer: (s: EnvServer | undefined) => void): Buffer {
  if (body.length === 0) return errorReply(`empty request: a request starts with its op byte (${OPS})`);
  const op = body[0];
  const name = OP_NAMES[op];
  if (name === undefined) return errorReply(`unknown op ${op}: the ops are ${OPS}`);
  try {
    return dispatch(server, op, body.subarray(1), setServer);
  } catch (e) {
    if (e instanceof RequestError) return errorReply(e.message);
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (op === OP_OPEN || op === OP_RECORD) return errorReply(`${name}: internal error (${what})`);
    setServer(undefined);
    return errorReply(`${name}: internal error (${what}); the environment is closed, as the request may have changed it part-way: send OPEN again`);
  }
}

/** One request of a known op, its arguments (the bytes after the op byte) checked before use. */
function dispatch(server: EnvServer | undefined, op: number, args: Buffer, setServer: (s: EnvServer) => void): Buffer {
  if (op === OP_OPEN) {
    let request: unknown;
    try {
      request = JSON.parse(args.toString('utf8'));
    } catch (e) {
      throw new RequestError(`open: the request is not JSON: ${(e as Error).message}`);
    }
    const s = new EnvServer(request);
    setServer(s);
    return Buffer.concat([Buffer.from([0]), Buffer.from(JSON.stringify(s.describe()), 'utf8')]);
  }
  if (!server) throw new RequestError(`${OP_NAMES[op]}: no environment open: send OPEN first`);
  if (op === OP_RESET) {
    if (args.length < 4) throw new RequestError(`reset: ${args.length} bytes after the op byte; expected u32 k, then k × (u32 game, f64 seed)`);
    const k = args.readUInt32LE(0);
    if (args.length !== 4 + 12 * k) throw new RequestError(`reset: ${args.length} bytes after the op byte for k = ${k}; expected ${4 + 12 * k} (u32 k, then 12 per game)`);
    return server.reset(Array.from({ length: k }, (_, i) => ({ game: args.readUInt32LE(4 + 12 * i), seed: args.readDoubleLE(8 + 12 * i) })));
  }
  if (op === OP_STEP) {
    if (args.length % 4 !== 0) throw new RequestError(`step: ${args.length} bytes after the op byte are not whole i32 actions`);
    const actions = new Int32Array(args.length / 4);
    for (let i = 0; i < actions.length; i++) actions[i] = args.readInt32LE(4 * i);
    return server.stepAll(actions);
  }
  if (args.length !== 5) throw new RequestError(`record: ${args.length} bytes after the op byte; expected 5 (u32 game, u8 which)`);
  const which = args[4];
  if (which !== 0 && which !== 1) throw new RequestError(`record: which ${which}: expected 0 (the game in play) or 1 (the last finished)`);
  return server.record(args.readUInt32LE(0), which);
}

/**
 * Cuts the input into request bodies, whatever the chunks. A frame longer than MAX_REQUEST_BYTES
 * is never held: push yields its length when the prefix arrives, then drops its bytes as they
 * come, counting them off, so that memory stays bounded and the frame after it is read in step.
 */
class FrameReader {
  /** The frame being read, from its length prefix: what has come of it. */
  private held: Buffer = Buffer.alloc(0);
  /** An oversized frame being dropped: its body length, and how many of its bytes are still to come. */
  private skipping?: { length: number; left: number };

  /** The frames a chunk completes, in order: a body, or the length of an oversized frame. */
  *push(chunk: Buffer): Generator<Buffer | number> {
    let rest = chunk;
    for (;;) {
      if (this.skipping) {
        const dropped = Math.min(this.skipping.left, rest.length);
        this.skipping.left -= dropped;
        rest = rest.subarray(dropped);
        if (this.skipping.left > 0) return;
        this.skipping = undefined;
      }
      // Frames up to the limit are held until whole (so at most MAX_REQUEST_BYTES + one chunk).
      this.held = this.held.length ? Buffer.concat([this.held, rest]) : rest;
      for (;;) {
        if (this.held.length < 4) return;
        const length = this.held.readUInt32LE(0);
        if (length > MAX_REQUEST_BYTES) {
          yield length;
          this.skipping = { length, left: length };
          rest = this.held.subarray(4);
          this.held = Buffer.alloc(0);
          break;
        }
        if (this.held.length < 4 + length) return;
        yield this.held.subarray(4, 4 + length);
        this.held = this.held.subarray(4 + length);
      }
    }
  }

  /** At the end of input: undefined between frames, else what was cut off. */
  cutOff(): string | undefined {
    if (this.skipping) return `input ended inside a frame: ${4 + this.skipping.length - this.skipping.left} of ${4 + this.skipping.length} bytes received`;
    if (this.held.length === 0) return undefined;
    if (this.held.length < 4) return `input ended inside a frame's length prefix: ${this.held.length} of 4 bytes received`;
    return `input ended inside a frame: ${this.held.length} of ${4 + this.held.readUInt32LE(0)} bytes received`;
  }
}

/**
 * Serves frames from stdin to stdout until stdin ends. An end between frames is the client's
 * normal close; an end inside one means a request was lost half-sent, so it throws, and the CLI
 * prints that one line on stderr and exits 1.
 */
export async function serveEnv(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  let server: EnvServer | undefined;
  const frames = new FrameReader();
  for await (const chunk of input) {
    for (const body of frames.push(chunk as Buffer)) {
      const reply =
        typeof body === 'number'
          ? errorReply(`request of ${body} bytes is over the limit of ${MAX_REQUEST_BYTES} bytes (MAX_REQUEST_BYTES): its bytes are skipped`)
          : handle(server, body, (s) => (server = s));
      const head = Buffer.alloc(4);
      head.writeUInt32LE(reply.length, 0);
      output.write(head);
      output.write(reply);
    }
  }
  const cut = frames.cutOff();
  if (cut !== undefined) throw new Error(cut);
}
