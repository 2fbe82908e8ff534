/**
 * Sweep specs: an experiment written down once. A spec names the seats' agents, where any
 * parameter may be a list to sweep; it expands deterministically into *cells* (one point of the
 * grid: an agent spec per seat) and each cell into the games of a Tournament (board set × deal ×
 * seat order), so game k of cell c is exactly the game `wonderlab play` would play with the same
 * options.
 */
import { z } from 'zod';
import { PUBLISHED_IDS } from '../papers/published.js';
import { ExternalAgentError, MINIMAX_LIST, agentFingerprint, PARAMETER_LIST, agentModel, checkAgentModel, checkAgentParams, describeRange, findAgent, localModels, parseAgentSpec, type AgentSpec, type InstalledAgent, type ModelLookup, type OutsideAgentRecord, type ParamDef } from '../../agents/index.js';
import { BOARDS, MAX_PLAYERS, MIN_PLAYERS, findBoard } from '../../engine/index.js';
import type { GamePlan, RecordKeeping } from '../game/game.js';
import { costProblem, moveProblem, sizeProblem, sweepCost, type AgentSource, type Factor, type LimitProblem, type SweepCost, type SweepLimits, type SweepSize } from './limits.js';
import { specProblems, type SpecProblem } from './spec-issues.js';
import { cellPlayRank, scheduledIndex, schedulePosition, type ScheduleKind, type ScheduleShape } from './schedule.js';
import { DEFAULT_PAIR, ROBILLIARD_SETS, SEATINGS, THESIS_WONDER_SETS } from '../game/setups.js';
import { Tournament, type TournamentOptions } from '../game/tournament.js';
import { SPSA_C_END, SPSA_R_END } from '../tune/spsa.js';
import { NTBEA_K } from '../tune/ntbea.js';
import { SpaceError, searchSpace, specAt, type Dimension } from '../tune/space.js';

/**
 * An agent option's value as the parameter table types it, or a list of values to sweep: a number
 * for a numeric option, so that `"c": "0.4"` (text) is refused naming the option instead of being
 * read as 0.4; text for a choice or a model; either for a per-Age option (`8` or `"8/24/32"`). The
 * ranges are the agent parser's to check, when the seat's spec is read.
 */
function paramValue(def: ParamDef) {
  const got = (issue: { input?: unknown }) => `got ${JSON.stringify(issue.input)}`;
  const error = (issue: { input?: unknown }) => `expected ${describeRange(def)}; ${got(issue)}`;
  const one = def.type === 'integer' || def.type === 'number' ? z.number({ error }) : def.type === 'perAge' ? z.union([z.number(), z.string()], { error }) : z.string({ error });
  return z.union([one, z.array(one).min(1)], { error: (issue) => `expected ${describeRange(def)}, or a list of such values; ${got(issue)}` });
}

/** A tune's confirmation: the recommendation against a reference on held-out deals, under an SPRT. */
const TuneConfirmSchema = z
  .strictObject({
    reference: z.string().min(1).max(500).optional().meta({ title: 'reference', description: "the agent the recommendation plays head to head; default: the tuned seat's agent without its swept values" }),
    firstSeed: z.number().int().min(0).max(2 ** 32 - 1).meta({ title: 'first seed', description: "the confirmation's deals: disjoint from the tune's" }),
    deals: z.number().int().min(1).max(1_000_000).default(500).meta({ title: 'deals', description: 'at most this many deals, seats swapped (the SPRT may stop sooner)' }),
    elo0: z.number().min(-1000).max(1000).default(0).meta({ title: 'elo0' }),
    elo1: z.number().min(-1000).max(1000).default(20).meta({ title: 'elo1' }),
    alpha: z.number().gt(0).lt(0.5).default(0.05).meta({ title: 'alpha' }),
    beta: z.number().gt(0).lt(0.5).default(0.05).meta({ title: 'beta' }),
  })
  .optional()
  .meta({ title: 'confirmation', description: "once the tune has decided, the recommendation plays the reference on held-out deals, seats swapped, under this SPRT (a sweep of its own); absent: no confirmation, and the tune says so" });

const tunedSeat = z.number().int().min(0).default(0).meta({ title: 'tuned seat', description: 'the seat whose agent is tuned' });

const RacingTuneSchema = z.strictObject({
  method: z.literal('racing').meta({ title: 'method', description: "racing: the sweep's cells are the arms (the tuned seat's swept values, or a matchup's specs); arms that fall behind leave the race (docs/tuning.md)" }),
  seat: tunedSeat,
  against: z.number().int().min(0).optional().meta({ title: 'against', description: "the objective: scores more VP than this seat's agent (½ on a tie); absent, wins (strictly the most VP) at its table" }),
  delta: z.number().gt(0).lt(0.5).default(0.05).meta({ title: 'δ', description: 'the chance that the arm returned is not within ε of the best' }),
  epsilon: z.number().min(0).lt(0.5).default(0.02).meta({ title: 'ε', description: 'arms within ε of the best are as good' }),
  roundDeals: z.number().int().min(1).max(10_000).default(10).meta({ title: 'deals per look', description: 'deals every arm still racing plays between two looks' }),
  confirm: TuneConfirmSchema,
});

/** One option to search (lab/tune/space.ts), by its spec key, with its range and scale. */
const DimensionSchema = z.strictObject({
  key: z.string().min(1).max(40).meta({ title: 'option', description: "the option's spec key, e.g. c, pw, playout" }),
  scale: z.enum(['linear', 'log', 'integer', 'choice']).optional().meta({ title: 'scale', description: "linear or log for numbers, integer (rounded), choice (listed values); default: the option's own (integer or linear, choice for a choice)" }),
  min: z.number().optional().meta({ title: 'min', description: "default: the option's least value" }),
  max: z.number().optional().meta({ title: 'max', description: "default: the option's greatest value" }),
  values: z
    .array(z.union([z.string().min(1).max(40), z.number()]))
    .min(2)
    .max(50)
    .optional()
    .meta({ title: 'values', description: "a choice's values to search (default: all of them), or numbers to search as a list" }),
});

const tuneParams = z.array(DimensionSchema).min(1).max(20).meta({ title: 'options', description: "the tuned seat's options to search" });

const SpsaTuneSchema = z.strictObject({
  method: z.literal('spsa').meta({ title: 'method', description: "SPSA (fishtest's): every step plays θ + c_k·δ against θ − c_k·δ on one deal, seats swapped, and moves θ by the result (docs/tuning.md)" }),
  seat: tunedSeat,
  against: z.number().int().min(0).optional().meta({ title: 'θ− seat', description: 'the seat θ − c_k·δ plays in (default: the next seat); the other seats play as given' }),
  params: tuneParams,
  steps: z.number().int().min(1).max(100_000).meta({ title: 'steps', description: 'game pairs in the budget: step k plays on deal firstSeed + k, seats swapped (2 games)' }),
  inFlight: z.number().int().min(1).max(64).default(4).meta({ title: 'steps at once', description: "steps proposed before the earlier ones' results are in (asynchronous SPSA, as fishtest's workers play)" }),
  cEnd: z.number().gt(0).max(0.5).default(SPSA_C_END).meta({ title: 'c_end', description: "the last step's perturbation, as a share of each option's range" }),
  rEnd: z.number().gt(0).max(1).default(SPSA_R_END).meta({ title: 'r_end', description: "the last step's learning rate" }),
  confirm: TuneConfirmSchema,
});

const NtbeaTuneSchema = z.strictObject({
  method: z.literal('ntbea').meta({ title: 'method', description: "NTBEA (TAG's): every step evaluates a point against the reference on new deals, seats swapped, then moves to the best-looking neighbour by the n-tuple model's UCB (docs/tuning.md)" }),
  seat: tunedSeat,
  against: z.number().int().min(0).optional().meta({ title: 'reference seat', description: "the seat of the agent each point plays head to head (default: the next seat)" }),
  params: tuneParams,
  steps: z.number().int().min(1).max(10_000).meta({ title: 'evaluations', description: 'points evaluated in the budget, one after another' }),
  dealsPerStep: z.number().int().min(1).max(1000).default(5).meta({ title: 'deals per evaluation', description: 'each on new deals, seats swapped (2 games a deal)' }),
  pairs: z.boolean().default(true).meta({ title: 'pairs', description: 'model every pair of options too (TAG: 2-tuples), not only each option alone' }),
  k: z.number().gt(0).max(10).default(NTBEA_K).meta({ title: 'k', description: 'the UCB exploration factor' }),
  confirm: TuneConfirmSchema,
});

/**
 * The MCTS and minimax options by their spec keys, from the agents' parameter tables (a key both
 * have, such as depth, is described as MCTS reads it; the seat's spec checks each key against
 * its own kind).
 */
const ParamsSchema = z.strictObject(
  Object.fromEntries([
    ...PARAMETER_LIST.map((def) => [def.key, paramValue(def).optional().describe(`${def.meaning} (${describeRange(def)}; a list sweeps it)`)]),
    ...MINIMAX_LIST.filter((def) => !PARAMETER_LIST.some((m) => m.key === def.key)).map((def) => [def.key, paramValue(def).optional().describe(`minimax: ${def.meaning} (${describeRange(def)}; a list sweeps it)`)]),
  ]),
);

/** An agent spec string (`mcts:500,10,100`, `mcts(it=250,c=0.4)`, `rulebased`): forms offer the agent kinds for it. */
const agentSpec = (title: string) => z.string().min(1).meta({ title, format: 'agent-spec', description: "an agent spec: `mcts:IT,TIME,DEPTH`, `mcts(key=value,…)` with any MCTS option, `minimax(key=value,…)`, `policy(model=…)`, or a rule-based or random agent's name" });

/** A pair of seats (0-based), e.g. the two compared in a swap or a matchup. */
const seatPair = (title: string, description: string) => z.tuple([z.number().int(), z.number().int()]).meta({ title, description });

/** A seat: a spec string, or an agent kind with parameters, any of which may be a list. */
const SeatSchema = z.union([
  agentSpec('agent spec'),
  z
    .strictObject({
      agent: z.string().min(1).meta({ title: 'agent', format: 'agent-kind', description: 'the MCTS or minimax agent kind the options apply to' }),
      params: ParamsSchema.optional().meta({ title: 'options', description: 'MCTS or minimax options by key; a list of values sweeps the option (one cell per value)' }),
    })
    .meta({ title: 'agent with options' }),
]).meta({ title: 'seat' });

const WondersSchema = z
  .discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('random') }).meta({ title: 'random', description: 'boards and sides drawn per deal' }),
    z.strictObject({ mode: z.literal('thesis') }).meta({ title: 'thesis', description: 'the 21 three-wonder sets of the thesis (3 players)' }),
    z.strictObject({ mode: z.literal('robilliard') }).meta({ title: 'robilliard', description: '20 board sets drawn from the seed (the 2014 paper)' }),
    /** The 2014 paper's tuning design: `seats` (default: swapSeats, matchup seats, or 0 and 1) share a board. */
    z
      .strictObject({
        mode: z.literal('duplicated'),
        sets: z.number().int().min(1).max(1000).default(5).meta({ title: 'board sets' }),
        seats: seatPair('shared seats', 'the two seats that share one board (default: swapSeats, the matchup seats, or 0 and 1)').optional(),
      })
      .meta({ title: 'duplicated', description: "the 2014 paper's tuning design: the two compared seats share one board, the others have their own" }),
    z
      .strictObject({
        mode: z.literal('fixed'),
        sets: z
          .array(z.array(z.union([z.string().meta({ title: 'board name' }), z.number().int().meta({ title: 'board index' })]).meta({ title: 'board' })).meta({ title: 'set', description: 'one board per seat' }))
          .min(1)
          .meta({ title: 'board sets' }),
      })
      .meta({ title: 'fixed', description: 'these board sets, each played with every deal' }),
  ])
  .meta({ title: 'Wonders', description: 'how the boards are chosen' });

export const SweepSpecSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).meta({ title: 'Name', description: 'free text' }),
    players: z.number().int().min(MIN_PLAYERS).max(MAX_PLAYERS).meta({ title: 'Players' }),
    seats: z.array(SeatSchema).min(MIN_PLAYERS).max(MAX_PLAYERS).meta({ title: 'Seats', description: 'one agent per seat; a seat with options may list values to sweep (cells are the cartesian product of every list)' }),
    /** MCTS-vs-MCTS matrices: every ordered pair of `specs` in the two `seats`. */
    matchup: z
      .strictObject({
        specs: z.array(agentSpec('agent spec')).min(2).meta({ title: 'agents', description: 'the agents of the matrix' }),
        seats: seatPair('seats', 'the two seats the pairs play in'),
        /** Only these ordered pairs (indices into specs), e.g. [[0, 1], [1, 2]]; default: every ordered pair. */
        pairs: z
          .array(z.tuple([z.number().int().min(0), z.number().int().min(0)]).meta({ title: 'pair' }))
          .min(1)
          .optional()
          .meta({ title: 'pairs', description: 'only these ordered pairs (indices into the agents), e.g. [[0, 1], [1, 2]]; default: every ordered pair' }),
      })
      .optional()
      .meta({ title: 'Matchup', description: 'an agent-against-agent matrix: every ordered pair of the agents in the two seats, the other seats as given' }),
    wonders: WondersSchema.default({ mode: 'random' }),
    sides: z.enum(['A', 'B', 'random']).default('random').meta({ title: 'Sides' }),
    deals: z
      .strictObject({
        firstSeed: z.number().int().min(0).max(2 ** 32 - 1).default(1).meta({ title: 'first seed' }),
        count: z.number().int().min(1).max(10_000_000).meta({ title: 'deals', description: 'deals (per board set)' }),
      })
      .meta({ title: 'Deals' }),
    seating: z.enum(SEATINGS).default('fixed').meta({ title: 'Seating', description: 'fixed; rotate: each deal once per rotation of the agents; permute: once per seat permutation; swap: as given and with the agents of swapSeats exchanged' }),
    swapSeats: seatPair('Swap seats', 'the two seats whose agents seating "swap" exchanges (default 0 and 1)').optional(),
    open: z.boolean().default(false).meta({ title: 'Open hands', description: 'every hand visible to every agent' }),
    /** Keep each game's full move record (stored as its move log: about 0.13 KB of Redis per 3-player game; each MCTS seat's search statistics add about 0.7 KB). */
    keepRecords: z.boolean().default(true).meta({ title: 'Keep move records', description: "each game's full move record, with the MCTS decisions' search statistics (stored as the game's move log: about 0.13 KB of Redis per 3-player game, and about 0.7 KB more per MCTS seat)" }),
    /** Keep every root move of each MCTS decision, not the 8 most visited: the visit distributions that training rows export. */
    training: z.boolean().default(false).meta({ title: 'Training data', description: "keep every root move of each MCTS decision in the move records (not only the 8 most visited), so that the sweep's training rows (GET /api/sweeps/{id}/training) carry whole visit distributions; needs keepRecords" }),
    stop: z
      .union([
        z
          .strictObject({
            sprt: z
              .strictObject({
                seats: seatPair('seats', 'a and b: is seat a\'s agent stronger than seat b\'s, head to head (1 when a scores more VP than b, ½ on a tie)'),
                elo0: z.number().min(-1000).max(1000).meta({ title: 'elo0', description: 'H0: a is this much stronger (Elo)' }),
                elo1: z.number().min(-1000).max(1000).meta({ title: 'elo1', description: 'H1: a is this much stronger (Elo; more than elo0)' }),
                alpha: z.number().gt(0).lt(0.5).default(0.05).meta({ title: 'alpha', description: 'chance of accepting H1 when H0 holds' }),
                beta: z.number().gt(0).lt(0.5).default(0.05).meta({ title: 'beta', description: 'chance of accepting H0 when H1 holds' }),
              })
              .meta({ title: 'SPRT' }),
          })
          .meta({ title: 'SPRT', description: 'stop a cell once the sequential probability ratio test decides between H0 and H1' }),
        z
          .strictObject({
            ciHalfWidth: z.number().gt(0).lt(0.5).meta({ title: 'half-width', description: "stop a cell once the seat's Wilson 95 % win-rate interval is this narrow on each side (0.02: ±2 points)" }),
            seat: z.number().int().min(0).meta({ title: 'seat' }),
          })
          .meta({ title: 'interval', description: "stop a cell once the seat's win rate is known this precisely" }),
      ])
      .optional()
      .meta({ title: 'Stopping rule', description: 'per cell: stop feeding its games once the question is decided (deals.count stays the upper bound); decided in play order from the recorded results alone' }),
    paper: z
      .enum(PUBLISHED_IDS)
      .optional()
      .meta({ title: 'Published table', description: "the published table this sweep reproduces: the sweep page draws the paper's numbers beside ours, each row with its verdict (agrees, inconclusive or differs)" }),
    tune: z
      .discriminatedUnion('method', [RacingTuneSchema, SpsaTuneSchema, NtbeaTuneSchema])
      .optional()
      .meta({ title: 'Tune', description: "the lab searches for the best setting itself: racing over the sweep's cells, SPSA or NTBEA over the tuned seat's options (docs/tuning.md)" }),
    /** Queue priority: 1 (the default) is served first, then 2, 3, … */
    priority: z.number().int().min(1).max(1000).default(1).meta({ title: 'Priority', description: '1 is served first, then 2, 3, …' }),
  })
  .superRefine((spec, ctx) => {
    if (spec.training && !spec.keepRecords) {
      ctx.addIssue({ code: 'custom', path: ['training'], message: 'training data are read from the move records: it needs keepRecords: true' });
    }
    if (spec.seats.length !== spec.players) {
      ctx.addIssue({ code: 'custom', path: ['seats'], message: `expected ${spec.players} seats (players), got ${spec.seats.length}` });
    }
    const pairs = [
      [['matchup', 'seats'], spec.matchup?.seats],
      [['swapSeats'], spec.swapSeats],
      [['wonders', 'seats'], spec.wonders.mode === 'duplicated' ? spec.wonders.seats : undefined],
    ] as const;
    const stopSeats = spec.stop ? ('sprt' in spec.stop ? spec.stop.sprt.seats : undefined) : undefined;
    if (stopSeats && (stopSeats[0] === stopSeats[1] || stopSeats.some((q) => q < 0 || q >= spec.players))) {
      ctx.addIssue({ code: 'custom', path: ['stop', 'sprt', 'seats'], message: `expected two different seats from 0 to ${spec.players - 1}` });
    }
    if (spec.stop && 'sprt' in spec.stop && spec.stop.sprt.elo1 <= spec.stop.sprt.elo0) {
      ctx.addIssue({ code: 'custom', path: ['stop', 'sprt', 'elo1'], message: `expected more than elo0 (${spec.stop.sprt.elo0})` });
    }
    if (spec.tune) {
      const t = spec.tune;
      if (spec.stop) ctx.addIssue({ code: 'custom', path: ['stop'], message: 'a tune stops its own games (racing drops arms): give no stopping rule' });
      if (t.seat >= spec.players) ctx.addIssue({ code: 'custom', path: ['tune', 'seat'], message: `expected a seat from 0 to ${spec.players - 1}` });
      if (t.against !== undefined && (t.against >= spec.players || t.against === t.seat)) ctx.addIssue({ code: 'custom', path: ['tune', 'against'], message: `expected a seat from 0 to ${spec.players - 1} other than the tuned seat (${t.seat})` });
      if (t.confirm && t.confirm.elo1 <= t.confirm.elo0) ctx.addIssue({ code: 'custom', path: ['tune', 'confirm', 'elo1'], message: `expected more than elo0 (${t.confirm.elo0})` });
      // The tune's deals: the sweep's, or for SPSA and NTBEA its steps' (tune-steps.ts), one after another.
      const tuneDeals = t.method === 'racing' ? spec.deals.count : t.steps * (t.method === 'spsa' ? 1 : t.dealsPerStep);
      if (t.confirm && t.confirm.firstSeed < spec.deals.firstSeed + tuneDeals && spec.deals.firstSeed < t.confirm.firstSeed + t.confirm.deals) {
        ctx.addIssue({ code: 'custom', path: ['tune', 'confirm', 'firstSeed'], message: `the confirmation's deals (${t.confirm.firstSeed}…${t.confirm.firstSeed + t.confirm.deals - 1}) overlap the tune's (${spec.deals.firstSeed}…${spec.deals.firstSeed + tuneDeals - 1}): a held-out confirmation needs deals the tune never played` });
      }
    }
    if (spec.stop && 'seat' in spec.stop && spec.stop.seat >= spec.players) {
      ctx.addIssue({ code: 'custom', path: ['stop', 'seat'], message: `expected a seat from 0 to ${spec.players - 1}` });
    }
    for (const [path, pair] of pairs) {
      if (pair && (pair[0] === pair[1] || pair.some((q) => q < 0 || q >= spec.players))) {
        ctx.addIssue({ code: 'custom', path: [...path], message: `expected two different seats from 0 to ${spec.players - 1}` });
      }
    }
    // A Set, not indexOf: a list of thousands must not cost millions of comparisons.
    const listed = new Set<string>();
    spec.matchup?.specs.forEach((text, i) => {
      if (listed.has(text)) ctx.addIssue({ code: 'custom', path: ['matchup', 'specs', i], message: `'${text}' is listed twice` });
      listed.add(text);
    });
    spec.matchup?.pairs?.forEach(([i, j], k) => {
      const size = spec.matchup!.specs.length;
      if (i >= size || j >= size || i === j) ctx.addIssue({ code: 'custom', path: ['matchup', 'pairs', k], message: `expected two different indices from 0 to ${size - 1}` });
    });
    spec.matchup?.seats.forEach((q) => {
      const seat = spec.seats[q];
      if (seat !== undefined && typeof seat !== 'string' && Object.values(seat.params ?? {}).some((v) => Array.isArray(v) && v.length > 1)) {
        ctx.addIssue({ code: 'custom', path: ['seats', q], message: 'a matchup seat takes its agents from matchup.specs: it cannot also sweep parameters' });
      }
    });
    if (spec.wonders.mode === 'thesis' && spec.players !== 3) {
      ctx.addIssue({ code: 'custom', path: ['wonders', 'mode'], message: 'the thesis wonder sets are for 3 players' });
    }
    if (spec.wonders.mode === 'fixed') {
      // The first problem is the one reported: the check stops at the first set that has one.
      spec.wonders.sets.every((set, i) => {
        let ok = true;
        const problem = (path: (string | number)[], message: string) => {
          ok = false;
          ctx.addIssue({ code: 'custom', path, message });
        };
        // Each problem names the board's place: a set with too few boards, where the first one is
        // missing; with too many, the first one too many.
        if (set.length !== spec.players) {
          problem(['wonders', 'sets', i, Math.min(set.length, spec.players)], `expected ${spec.players} boards (players), got ${set.length}`);
        }
        const seen = new Map<number, number>();
        set.forEach((b, j) => {
          const board = boardOf(b);
          if (board === undefined) {
            problem(['wonders', 'sets', i, j], `unknown wonder board '${b}' (known: ${BOARDS.map((x) => x.city).join(', ')}, or 0 to ${BOARDS.length - 1})`);
          } else if (seen.has(board)) {
            // Two seats on one board is the duplicated mode's design; in a fixed set every game of it would fail.
            const k = seen.get(board)!;
            problem(['wonders', 'sets', i, j], `'${b}' is the same board as wonders.sets.${i}.${k} ('${set[k]}'): a set needs ${spec.players} different boards`);
          } else {
            seen.set(board, j);
          }
        });
        return ok;
      });
    }
  });

/** A board given by name (any spelling findBoard knows) or index. */
function boardOf(b: string | number): number | undefined {
  return typeof b === 'number' ? (b >= 0 && b < BOARDS.length ? b : undefined) : findBoard(b);
}

export type SweepSpecInput = z.input<typeof SweepSpecSchema>;
export type SweepSpec = z.output<typeof SweepSpecSchema>;

export class SweepSpecError extends Error {
  /** Every problem found, this error's own first: a form shows each at its field. */
  readonly problems: readonly SpecProblem[];

  constructor(
    readonly field: string,
    message: string,
    more: readonly SpecProblem[] = [],
  ) {
    super(`${field}: ${message}`);
    this.problems = [{ field, message }, ...more];
  }

  /** The error of a list of problems (at least one), the first of each field kept. */
  static of(problems: readonly SpecProblem[]): SweepSpecError {
    const fields = new Set<string>();
    const [first, ...more] = problems.filter((p) => !fields.has(p.field) && fields.add(p.field));
    return new SweepSpecError(first.field, first.message, more);
  }
}

/** Validates a sweep spec; throws SweepSpecError naming the first bad field (e.g. 'seats.1'), with every other in its problems. */
export function parseSweepSpec(input: unknown, limits?: SweepLimits): SweepSpec {
  return checkSweepSpec(input, limits).spec;
}

/** A valid spec with its size, and with limits its estimated cost. */
export interface CheckedSweep {
  spec: SweepSpec;
  size: SweepSize;
  cost?: SweepCost;
  /** Given limits, the spec expanded (once: what the lab stores and feeds). */
  sweep?: Sweep;
}

/** A spec's agents, each parsed and with the field it comes from (seats' variants, then matchup specs). */
interface SpecAgents {
  spec: SweepSpec;
  size: SweepSize;
  sources: (AgentSource & { parsed: AgentSpec })[];
}

/** One seat's agents (seatVariants), or the problems that keep one from parsing. */
function readSeat(seat: z.output<typeof SeatSchema>, index: number): { variants: ReturnType<typeof seatVariants>; problems: readonly SpecProblem[] } {
  try {
    return { variants: seatVariants(seat, index), problems: [] };
  } catch (err) {
    if (err instanceof SweepSpecError) return { variants: [], problems: err.problems };
    throw err;
  }
}

/**
 * The spec validated, its grid's size checked against the limits (multiplied, not expanded), and
 * every agent of it parsed (expanded only once the grid is known to be within MAX_CELLS). Throws
 * SweepSpecError naming the first problem, with every problem found at that stage: a spec's
 * problems of shape, with the agents of the seats whose shape is right; or all its agents'.
 */
function specAgents(input: unknown, limits?: SweepLimits): SpecAgents {
  const result = SweepSpecSchema.safeParse(input);
  if (!result.success) {
    const problems = specProblems(SweepSpecSchema, result.error.issues);
    // The seats of a right shape are read as agents too, so that one answer names every bad field.
    const seats = typeof input === 'object' && input !== null && 'seats' in input ? input.seats : undefined;
    if (Array.isArray(seats)) {
      seats.forEach((seat, i) => {
        const parsed = SeatSchema.safeParse(seat);
        const named = problems.some((p) => p.field === `seats.${i}` || p.field.startsWith(`seats.${i}.`));
        if (parsed.success && !named) problems.push(...readSeat(parsed.data, i).problems);
      });
    }
    throw SweepSpecError.of(problems);
  }
  const spec = result.data;
  const size = sweepSize(spec);
  if (limits) refuse(sizeProblem(size, limits));
  // Every agent variant must parse: checked here so a bad value is a 400, not a failed game. Each
  // seat's variants are checked alone (without limits the grid itself may be too large to list).
  const sources: SpecAgents['sources'] = [];
  const problems: SpecProblem[] = [];
  spec.seats.forEach((seat, i) => {
    const keys = typeof seat === 'string' ? undefined : Object.keys(seat.params ?? {});
    const read = readSeat(seat, i);
    problems.push(...read.problems);
    for (const v of read.variants) sources.push({ text: v.text, field: `seats.${i}`, keys, parsed: v.parsed });
  });
  spec.matchup?.specs.forEach((text, i) => {
    const field = `matchup.specs.${i}`;
    try {
      sources.push({ text, field, parsed: parseAgentSpec(text) });
    } catch (err) {
      problems.push({ field, message: (err as Error).message });
    }
  });
  if (problems.length > 0) throw SweepSpecError.of(problems);
  return { spec, size, sources };
}

function refuse(problem: LimitProblem | undefined): void {
  if (problem) throw new SweepSpecError(problem.field, problem.message);
}

/**
 * The models a spec's agents read, for a caller that checks them elsewhere before checkSweepSpec
 * (the coordinator, on a thread): none when the spec fails before its agents (checkSweepSpec then
 * says why).
 */
export function sweepModelNames(input: unknown, limits?: SweepLimits): string[] {
  let sources: SpecAgents['sources'];
  try {
    sources = specAgents(input, limits).sources;
  } catch (err) {
    if (err instanceof SweepSpecError) return [];
    throw err;
  }
  const names = new Set<string>();
  // An outside agent's model is read from its manifest: once per agent text, not per seat and cell.
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.parsed.text)) continue;
    seen.add(source.parsed.text);
    const model = agentModel(source.parsed);
    if (model !== undefined) names.add(model);
  }
  return [...names];
}

/**
 * Validates a sweep spec and, given a lab's limits, checks it against them: first the grid's size
 * (multiplied, not expanded), then every agent of it (expanded only once the grid is known to be
 * within MAX_CELLS) with the network it reads, found by `models`, then the estimated cost. Throws
 * SweepSpecError naming the first problem.
 */
export function checkSweepSpec(input: unknown, limits?: SweepLimits, models: ModelLookup = localModels): CheckedSweep {
  const { spec, size, sources } = specAgents(input, limits);
  const problems: SpecProblem[] = [];
  for (const source of sources) {
    try {
      // A model (a policy's, or an MCTS agent's model=…) is checked now: a missing or mis-shaped
      // file is a 400 naming it, not a failed game.
      checkAgentModel(source.parsed, spec.players, models);
      // An outside agent likewise: installed, playing this many players, taking these parameters.
      if (source.parsed.kind === 'ext') checkOutsideAgent(source.parsed, spec.players);
    } catch (err) {
      problems.push({ field: source.field, message: (err as Error).message });
      continue;
    }
    const overLimit = limits && moveProblem(source, source.parsed, limits);
    if (overLimit) problems.push(overLimit);
  }
  if (problems.length > 0) throw SweepSpecError.of(problems);
  if (spec.tune) checkTune(spec, limits);
  if (!limits) return { spec, size };
  const sweep = new Sweep(spec);
  const cost = sweepCost(sweep.cells, size.gamesPerCell);
  refuse(costProblem(cost, sweep.cells, size, limits));
  return { spec, size, cost, sweep };
}

/** An outside agent of a spec as this lab has it installed (ExternalAgentError naming what is wrong). */
export function checkOutsideAgent(spec: Extract<AgentSpec, { kind: 'ext' }>, players: number): InstalledAgent {
  const agent = findAgent(spec.name);
  if (!agent.manifest.players.includes(players)) throw new ExternalAgentError(`outside agent '${spec.name}' plays ${agent.manifest.players.join(', ')} players, not ${players} (its agent.json)`);
  checkAgentParams(agent, spec.options);
  return agent;
}

/**
 * The agent a racing tune's recommendation is confirmed against: confirm.reference, else the tuned
 * seat's agent with only its fixed values (an object seat without its swept lists). A matchup seat
 * has no such agent: its confirmation names one.
 */
export function raceReference(spec: SweepSpec): string | undefined {
  const t = spec.tune;
  if (!t?.confirm) return undefined;
  if (t.confirm.reference) return t.confirm.reference;
  const seat = spec.seats[t.seat];
  // SPSA and NTBEA start from the tuned seat's agent: the recommendation is confirmed against it.
  if (t.method !== 'racing') return seatSpec(seat);
  if (typeof seat === 'string' || spec.matchup?.seats.includes(t.seat)) return undefined;
  const fixed = Object.entries(seat.params ?? {}).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length > 1));
  return fixed.length ? `${seat.agent}(${fixed.map(([k, v]) => `${k}=${Array.isArray(v) ? v[0] : v}`).join(',')})` : seat.agent;
}

/** A seat without lists as a spec string (an object seat's values written in). */
export function seatSpec(seat: SweepSpec['seats'][number]): string {
  if (typeof seat === 'string') return seat;
  const params = Object.entries(seat.params ?? {}).filter(([, v]) => v !== undefined);
  return params.length ? `${seat.agent}(${params.map(([k, v]) => `${k}=${Array.isArray(v) ? v[0] : v}`).join(',')})` : seat.agent;
}

/** A racing tune's arms: two cells or more, differing in the tuned seat's agent only; an SPSA or NTBEA tune's space. */
function checkTune(spec: SweepSpec, limits?: SweepLimits): void {
  const t = spec.tune!;
  if (t.method !== 'racing') return checkSteppedTune(spec, t, limits);
  const cells = sweepCells(spec);
  if (cells.length < 2) throw new SweepSpecError('tune', `racing needs two arms or more: list values in seats.${t.seat}.params (e.g. "c": [0.3, 0.5, 0.7]) or race a matchup's specs`);
  cells[0].agents.forEach((agent, q) => {
    if (q !== t.seat && cells.some((c) => c.agents[q] !== agent)) throw new SweepSpecError(`seats.${q}`, `the arms may differ only in the tuned seat (${t.seat}); seat ${q} changes too`);
  });
  const arms = new Set(cells.map((c) => c.agents[t.seat]));
  if (arms.size !== cells.length) throw new SweepSpecError(`seats.${t.seat}`, `the arms must differ in the tuned seat (${t.seat}): its agent repeats across the sweep's cells`);
  if (!t.confirm) return;
  const reference = raceReference(spec);
  if (!reference) throw new SweepSpecError('tune.confirm.reference', 'name the agent the recommendation is confirmed against: the tuned seat has no single base agent');
  try {
    const parsed = parseAgentSpec(reference);
    if (limits) refuse(moveProblem({ text: reference, field: 'tune.confirm.reference' }, parsed, limits));
  } catch (err) {
    if (err instanceof SweepSpecError) throw err;
    throw new SweepSpecError('tune.confirm.reference', (err as Error).message);
  }
}

/**
 * An SPSA or NTBEA tune: one cell (no lists: the options searched are tune.params), the tuned
 * seat's agent has the options (space.ts, each checked against the parameter table), SPSA's are
 * numbers and NTBEA's listed values, and the agents at the edges of the space within the lab's
 * limits per move.
 */
function checkSteppedTune(spec: SweepSpec, t: Extract<NonNullable<SweepSpec['tune']>, { method: 'spsa' | 'ntbea' }>, limits?: SweepLimits): void {
  spec.seats.forEach((seat, q) => {
    if (typeof seat !== 'string' && Object.values(seat.params ?? {}).some((v) => Array.isArray(v) && v.length > 1)) {
      throw new SweepSpecError(`seats.${q}`, `an ${t.method.toUpperCase()} tune searches tune.params: list no values in the seats`);
    }
  });
  if (spec.matchup) throw new SweepSpecError('matchup', `an ${t.method.toUpperCase()} tune plays one agent against another of its own steps: give no matchup`);
  const partner = t.against ?? (t.seat + 1) % spec.players;
  if (partner === t.seat || partner >= spec.players) throw new SweepSpecError('tune.against', `expected a seat from 0 to ${spec.players - 1} other than the tuned seat (${t.seat})`);
  const base = seatSpec(spec.seats[t.seat]);
  let dims: Dimension[];
  try {
    dims = searchSpace(base, t.params, 'tune.params');
  } catch (err) {
    if (err instanceof SpaceError) throw new SweepSpecError(err.field, err.message.slice(err.field.length + 2));
    throw err;
  }
  dims.forEach((d, i) => {
    if (t.method === 'spsa' && d.scale === 'choice') throw new SweepSpecError(`tune.params.${i}`, `SPSA moves numbers: '${d.key}' ${d.values ? 'is searched over listed values' : 'is a choice'}; search it with NTBEA`);
    if (t.method === 'ntbea' && !d.values) throw new SweepSpecError(`tune.params.${i}.values`, `NTBEA searches listed values: list the values of '${d.key}' to try (e.g. "values": [${d.min}, ${d.max}])`);
  });
  const edges = t.method === 'spsa' ? [dims.map((d) => d.min), dims.map((d) => d.max)] : [dims.map((d) => d.values![0]), dims.map((d) => d.values![d.values!.length - 1])];
  for (const point of edges) {
    let text: string;
    let parsed: AgentSpec;
    try {
      text = specAt(base, dims, point);
      parsed = parseAgentSpec(text);
    } catch {
      // Options that do not go together at this corner: such a point is refused when proposed
      // (and scored 0), not the whole tune. The limits are checked where the agent exists.
      continue;
    }
    const problem = limits && moveProblem({ text, field: 'tune.params' }, parsed, limits);
    if (problem) throw new SweepSpecError('tune.params', `at the edge of the space, ${problem.message}`);
  }
  const reference = raceReference(spec);
  if (reference) {
    try {
      const parsed = parseAgentSpec(reference);
      if (limits) refuse(moveProblem({ text: reference, field: 'tune.confirm.reference' }, parsed, limits));
    } catch (err) {
      if (err instanceof SweepSpecError) throw err;
      throw new SweepSpecError('tune.confirm.reference', (err as Error).message);
    }
  }
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** Cells and games of a spec with the factors they are products of, counted without expanding it. */
/** What the sweep's games keep of their moves (PlayOptions.record). */
export function recordKeeping(spec: Pick<SweepSpec, 'keepRecords' | 'training'>): RecordKeeping {
  return spec.keepRecords ? (spec.training ? 'training' : true) : false;
}

export function sweepSize(spec: SweepSpec): SweepSize {
  const cellFactors: Factor[] = [];
  spec.seats.forEach((seat, i) => {
    if (typeof seat === 'string') return;
    for (const [key, value] of Object.entries(seat.params ?? {})) {
      if (Array.isArray(value) && value.length > 1) cellFactors.push({ field: `seats.${i}.params.${key}`, count: value.length, what: 'values' });
    }
  });
  if (spec.matchup) {
    const n = spec.matchup.specs.length;
    cellFactors.push(spec.matchup.pairs ? { field: 'matchup.pairs', count: spec.matchup.pairs.length, what: 'pairs' } : { field: 'matchup.specs', count: n * (n - 1), what: 'ordered pairs' });
  }
  const w = spec.wonders;
  const sets = w.mode === 'fixed' ? w.sets.length : w.mode === 'duplicated' ? w.sets : { random: 1, thesis: THESIS_WONDER_SETS.length, robilliard: ROBILLIARD_SETS }[w.mode];
  const orders = { fixed: 1, swap: 2, rotate: spec.players, permute: factorial(spec.players) }[spec.seating];
  const t = spec.tune;
  // An SPSA or NTBEA tune's games are its steps': each on its own deals, seats swapped.
  const gameFactors: Factor[] =
    t && t.method !== 'racing'
      ? [
          { field: 'wonders', count: sets, what: 'wonder sets' },
          { field: 'tune.steps', count: t.steps, what: 'steps' },
          { field: 'tune.dealsPerStep', count: t.method === 'ntbea' ? t.dealsPerStep : 1, what: 'deals per step' },
          { field: 'tune.seat', count: 2, what: 'seat orders (swapped)' },
        ]
      : [
          { field: 'wonders', count: sets, what: 'wonder sets' },
          { field: 'deals.count', count: spec.deals.count, what: 'deals' },
          { field: 'seating', count: orders, what: 'seat orders' },
        ];
  const cells = cellFactors.reduce((p, f) => p * f.count, 1);
  const gamesPerCell = gameFactors.reduce((p, f) => p * f.count, 1);
  return { cells, gamesPerCell, total: cells * gamesPerCell, cellFactors, gameFactors };
}


/** One value of a swept parameter: 'seats.<seat>.<key>' (a listed value) or 'matchup'. */
export type SweptValues = Record<string, string | number>;

/** A seat's variants: the cartesian product of its listed parameter values, as spec strings. */
function seatVariants(seat: SweepSpec['seats'][number], index: number): { text: string; swept: SweptValues; parsed: AgentSpec }[] {
  let variants: { text: string; swept: SweptValues }[];
  if (typeof seat === 'string') {
    variants = [{ text: seat, swept: {} }];
  } else {
    let parts: { params: string[]; swept: SweptValues }[] = [{ params: [], swept: {} }];
    for (const [key, value] of Object.entries(seat.params ?? {})) {
      if (value === undefined) continue;
      const values = Array.isArray(value) ? value : [value];
      parts = parts.flatMap((v) =>
        values.map((x) => ({
          params: [...v.params, `${key}=${x}`],
          swept: Array.isArray(value) && value.length > 1 ? { ...v.swept, [`seats.${index}.${key}`]: x } : v.swept,
        })),
      );
    }
    variants = parts.map((v) => ({ text: v.params.length ? `${seat.agent}(${v.params.join(',')})` : seat.agent, swept: v.swept }));
  }
  return variants.map((v) => {
    try {
      return { ...v, parsed: parseAgentSpec(v.text) };
    } catch (err) {
      throw new SweepSpecError(`seats.${index}`, (err as Error).message);
    }
  });
}

export interface SweepCell {
  index: number;
  /** Agent spec per seat. */
  agents: string[];
  /** The swept parameters' values at this point of the grid (empty when nothing is swept). */
  swept: SweptValues;
  /** The two seats whose agents a paired design compares (swap seats or matchup seats), if any. */
  compared?: [number, number];
}

/**
 * The models a sweep's agents read (policies', and MCTS agents' model=…), each with its file's
 * sha256 (as `models` found it when the spec was checked): recorded with the sweep, so that a
 * result says which network played, and its games are played by that network or fail.
 */
export function sweepModels(cells: readonly SweepCell[], models: ModelLookup = localModels): Record<string, string> {
  const hashes: Record<string, string> = {};
  // An outside agent's model is read from its manifest: once per agent text, not per seat and cell.
  const seen = new Set<string>();
  for (const cell of cells) {
    for (const text of cell.agents) {
      if (seen.has(text)) continue;
      seen.add(text);
      const model = agentModel(parseAgentSpec(text));
      if (model !== undefined) hashes[model] ??= models(model).sha256;
    }
  }
  return hashes;
}

/** The outside agents a sweep's cells name, each as installed now: its manifest and the hash of its files (the sweep's provenance). */
export function sweepOutsideAgents(cells: readonly SweepCell[]): Record<string, OutsideAgentRecord> {
  const out: Record<string, OutsideAgentRecord> = {};
  for (const cell of cells) {
    for (const text of cell.agents) {
      const spec = parseAgentSpec(text);
      if (spec.kind === 'ext') out[spec.name] ??= agentFingerprint(findAgent(spec.name));
    }
  }
  return out;
}

/** The grid's points, in a fixed order (seat 0's values vary slowest; matchup pairs last). */
export function sweepCells(spec: SweepSpec): SweepCell[] {
  let grids: { agents: string[]; swept: SweptValues }[] = [{ agents: [], swept: {} }];
  spec.seats.forEach((seat, i) => {
    const options = seatVariants(seat, i);
    grids = grids.flatMap((g) => options.map((o) => ({ agents: [...g.agents, o.text], swept: { ...g.swept, ...o.swept } })));
  });
  let compared: [number, number] | undefined = spec.seating === 'swap' ? (spec.swapSeats ?? [...DEFAULT_PAIR]) : undefined;
  if (spec.matchup) {
    const [a, b] = spec.matchup.seats;
    compared = [a, b];
    spec.matchup.specs.forEach((text, i) => {
      try {
        parseAgentSpec(text);
      } catch (err) {
        throw new SweepSpecError(`matchup.specs.${i}`, (err as Error).message);
      }
    });
    const pairs: [string, string][] = [];
    const specs = spec.matchup.specs;
    if (spec.matchup.pairs) for (const [i, j] of spec.matchup.pairs) pairs.push([specs[i], specs[j]]);
    else for (const x of specs) for (const y of specs) if (x !== y) pairs.push([x, y]);
    grids = grids.flatMap((g) =>
      pairs.map(([x, y]) => ({ agents: g.agents.map((s, q) => (q === a ? x : q === b ? y : s)), swept: { ...g.swept, [`matchup.${a}`]: x, [`matchup.${b}`]: y } })),
    );
  }
  return grids.map((g, index) => ({ index, agents: g.agents, swept: g.swept, ...(compared ? { compared } : {}) }));
}

/** The tournament options of one cell: what `wonderlab play` would be given. */
export function cellTournament(spec: SweepSpec, cell: SweepCell): TournamentOptions {
  const w = spec.wonders;
  return {
    agents: cell.agents,
    setup: w.mode,
    boardSets: w.mode === 'fixed' ? w.sets.map((set) => set.map((b) => boardOf(b)!)) : undefined,
    deals: spec.deals.count,
    seed: spec.deals.firstSeed,
    seating: spec.seating,
    swapSeats: spec.swapSeats,
    ...(w.mode === 'duplicated' ? { duplicatedSets: w.sets, duplicateSeats: w.seats ?? spec.swapSeats ?? spec.matchup?.seats ?? [...DEFAULT_PAIR] } : {}),
    sides: spec.sides,
    open: spec.open,
  };
}

export interface SweepOptions {
  /** The order its games are queued in (schedule.ts); interleaved unless the sweep was stored before it. */
  schedule?: ScheduleKind;
  /** The sha256 of each model its agents read, as recorded at submit (sweepModels): every game's plan carries them. */
  models?: Readonly<Record<string, string>>;
}

/** A sweep's games addressable by index: cell ⌊k / gamesPerCell⌋, then that cell's game. */
export class Sweep {
  readonly cells: readonly SweepCell[];
  readonly gamesPerCell: number;
  readonly size: number;
  /** Games per (board set, deal): the seat orders a deal is played in; a paired design's group. */
  readonly ordersPerDeal: number;
  /** The seat orders: orders[o][seat] is the spec's seat of the agent playing there. */
  readonly orders: readonly (readonly number[])[];
  readonly schedule: ScheduleKind;
  /** The models' recorded sha256 (SweepOptions.models), if any. */
  readonly models: Readonly<Record<string, string>> | undefined;
  /** Cells, board sets, deals and seat orders: what the queue's order is made of. */
  readonly shape: ScheduleShape;
  private readonly tournaments: Tournament[];

  constructor(
    readonly spec: SweepSpec,
    options: SweepOptions = {},
  ) {
    this.cells = sweepCells(spec);
    this.tournaments = this.cells.map((cell) => new Tournament(cellTournament(spec, cell)));
    this.gamesPerCell = this.tournaments[0].size;
    this.ordersPerDeal = this.tournaments[0].orders.length;
    this.orders = this.tournaments[0].orders;
    // An SPSA or NTBEA tune plays no game of its own: its games are its steps', sweeps the
    // coordinator makes one after another from the results (tune-steps.ts).
    this.size = spec.tune?.method === 'spsa' || spec.tune?.method === 'ntbea' ? 0 : this.cells.length * this.gamesPerCell;
    this.schedule = options.schedule ?? 'interleaved';
    this.models = options.models;
    this.shape = { cells: this.cells.length, sets: this.tournaments[0].sets.length, deals: this.tournaments[0].deals, orders: this.ordersPerDeal };
  }

  /** The game index queued at position p of the sweep's order. */
  indexAt(p: number): number {
    return this.schedule === 'sequential' ? p : scheduledIndex(this.shape, p);
  }

  /** The position at which game k is queued (the inverse of indexAt). */
  positionOf(k: number): number {
    return this.schedule === 'sequential' ? k : schedulePosition(this.shape, k);
  }

  /** The game with place `rank` in cell `cell`'s play order (the inverse of playRank within a cell). */
  cellGameAt(cell: number, rank: number): number {
    if (this.schedule === 'sequential') return cell * this.gamesPerCell + rank;
    const { cells, orders } = this.shape;
    return scheduledIndex(this.shape, Math.floor(rank / orders) * cells * orders + cell * orders + (rank % orders));
  }

  /** Game k's place in its cell's play order (0: the cell's first game queued). */
  playRank(k: number): number {
    return this.schedule === 'sequential' ? k % this.gamesPerCell : cellPlayRank(this.shape, k);
  }

  /** The cell of game index k (without building its plan). */
  cellOf(k: number): number {
    return Math.floor(k / this.gamesPerCell);
  }

  /** Game k of the sweep; its id is `c<cell>-` followed by the tournament's game id. */
  game(k: number): GamePlan & { cell: number } {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) throw new RangeError(`game index ${k} is outside 0..${this.size - 1}`);
    const cell = this.cellOf(k);
    const plan = this.tournaments[cell].game(k % this.gamesPerCell);
    return { ...plan, id: `c${cell}-${plan.id}`, index: k, cell, ...(this.models ? { models: this.models } : {}) };
  }
}
