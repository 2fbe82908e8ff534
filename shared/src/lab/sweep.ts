/**
 * Sweep specs: an experiment written down once. A spec names the seats' agents, where any
 * parameter may be a list to sweep; it expands deterministically into *cells* (one point of the
 * grid: an agent spec per seat) and each cell into the games of a Tournament (board set × deal ×
 * seat order), so game k of cell c is exactly the game `wonderlab play` would play with the same
 * options.
 */
import { z } from 'zod';
import { parseAgentSpec } from '../agents/index.js';
import { MAX_PLAYERS, MIN_PLAYERS, findBoard } from '../engine/index.js';
import type { GamePlan } from './game.js';
import { ROBILLIARD_SETS, SEATINGS, THESIS_WONDER_SETS } from './setups.js';
import { Tournament, type TournamentOptions } from './tournament.js';

const scalar = z.union([z.number(), z.string()]);

/** A seat: a spec string, or an agent kind with parameters, any of which may be a list. */
const SeatSchema = z.union([
  z.string().min(1),
  z.strictObject({
    agent: z.string().min(1),
    params: z.record(z.string(), z.union([scalar, z.array(scalar).min(1)])).optional(),
  }),
]);

const WondersSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('random') }),
  z.strictObject({ mode: z.literal('thesis') }),
  z.strictObject({ mode: z.literal('robilliard') }),
  /** The 2014 paper's tuning design: `seats` (default: swapSeats, matchup seats, or 0 and 1) share a board. */
  z.strictObject({ mode: z.literal('duplicated'), sets: z.number().int().min(1).max(1000).default(5), seats: z.tuple([z.number().int(), z.number().int()]).optional() }),
  z.strictObject({ mode: z.literal('fixed'), sets: z.array(z.array(z.union([z.string(), z.number().int()]))).min(1) }),
]);

export const SweepSpecSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    players: z.number().int().min(MIN_PLAYERS).max(MAX_PLAYERS),
    seats: z.array(SeatSchema).min(MIN_PLAYERS).max(MAX_PLAYERS),
    /** MCTS-vs-MCTS matrices: every ordered pair of `specs` in the two `seats`. */
    matchup: z
      .strictObject({
        specs: z.array(z.string().min(1)).min(2),
        seats: z.tuple([z.number().int(), z.number().int()]),
        /** Only these ordered pairs (indices into specs), e.g. [[0, 1], [1, 2]]; default: every ordered pair. */
        pairs: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])).min(1).optional(),
      })
      .optional(),
    wonders: WondersSchema.default({ mode: 'random' }),
    sides: z.enum(['A', 'B', 'random']).default('random'),
    deals: z.strictObject({ firstSeed: z.number().int().min(0).max(2 ** 32 - 1).default(1), count: z.number().int().min(1).max(10_000_000) }),
    seating: z.enum(SEATINGS).default('fixed'),
    swapSeats: z.tuple([z.number().int(), z.number().int()]).optional(),
    open: z.boolean().default(false),
    /** Keep each game's full move record (about 1.1 KB of Redis per 3-player game, deflated). */
    keepRecords: z.boolean().default(true),
    /** Queue priority: 1 (the default) is served first, then 2, 3, … */
    priority: z.number().int().min(1).max(1000).default(1),
  })
  .superRefine((spec, ctx) => {
    if (spec.seats.length !== spec.players) {
      ctx.addIssue({ code: 'custom', path: ['seats'], message: `expected ${spec.players} seats (players), got ${spec.seats.length}` });
    }
    const pairs = [
      [['matchup', 'seats'], spec.matchup?.seats],
      [['swapSeats'], spec.swapSeats],
      [['wonders', 'seats'], spec.wonders.mode === 'duplicated' ? spec.wonders.seats : undefined],
    ] as const;
    for (const [path, pair] of pairs) {
      if (pair && (pair[0] === pair[1] || pair.some((q) => q < 0 || q >= spec.players))) {
        ctx.addIssue({ code: 'custom', path: [...path], message: `expected two different seats from 0 to ${spec.players - 1}` });
      }
    }
    spec.matchup?.specs.forEach((text, i) => {
      if (spec.matchup!.specs.indexOf(text) !== i) ctx.addIssue({ code: 'custom', path: ['matchup', 'specs', i], message: `'${text}' is listed twice` });
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
      spec.wonders.sets.forEach((set, i) => {
        if (set.length !== spec.players) ctx.addIssue({ code: 'custom', path: ['wonders', 'sets', i], message: `expected ${spec.players} boards, got ${set.length}` });
        set.forEach((b, j) => {
          if ((typeof b === 'number' ? (b >= 0 && b < 7 ? b : undefined) : findBoard(b)) === undefined) {
            ctx.addIssue({ code: 'custom', path: ['wonders', 'sets', i, j], message: `unknown wonder board '${b}'` });
          }
        });
      });
    }
  });

export type SweepSpecInput = z.input<typeof SweepSpecSchema>;
export type SweepSpec = z.output<typeof SweepSpecSchema>;

export class SweepSpecError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** Validates a sweep spec; throws SweepSpecError naming the first bad field (e.g. 'seats.1'). */
export function parseSweepSpec(input: unknown): SweepSpec {
  const result = SweepSpecSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new SweepSpecError(issue.path.length ? issue.path.join('.') : '(spec)', issue.message);
  }
  const spec = result.data;
  // Every agent variant must parse: checked here so a bad value is a 400, not a failed game. Each
  // seat's variants are checked alone; the grid itself may be too large to list.
  spec.seats.forEach((seat, i) => seatVariants(seat, i));
  spec.matchup?.specs.forEach((text, i) => {
    try {
      parseAgentSpec(text);
    } catch (err) {
      throw new SweepSpecError(`matchup.specs.${i}`, (err as Error).message);
    }
  });
  return spec;
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** Cells and games of a spec, counted without expanding it (a spec can describe billions). */
export function countSweepGames(spec: SweepSpec): { cells: number; gamesPerCell: number; total: number } {
  let cells = 1;
  for (const seat of spec.seats) {
    if (typeof seat === 'string') continue;
    for (const value of Object.values(seat.params ?? {})) cells *= Array.isArray(value) ? value.length : 1;
  }
  if (spec.matchup) cells *= spec.matchup.pairs?.length ?? spec.matchup.specs.length * (spec.matchup.specs.length - 1);
  const w = spec.wonders;
  const sets = w.mode === 'fixed' ? w.sets.length : w.mode === 'duplicated' ? w.sets : { random: 1, thesis: THESIS_WONDER_SETS.length, robilliard: ROBILLIARD_SETS }[w.mode];
  const orders = { fixed: 1, swap: 2, rotate: spec.players, permute: factorial(spec.players) }[spec.seating];
  const gamesPerCell = sets * spec.deals.count * orders;
  return { cells, gamesPerCell, total: cells * gamesPerCell };
}

/** One value of a swept parameter: 'seats.<seat>.<key>' (a listed value) or 'matchup'. */
export type SweptValues = Record<string, string | number>;

/** A seat's variants: the cartesian product of its listed parameter values, as spec strings. */
function seatVariants(seat: SweepSpec['seats'][number], index: number): { text: string; swept: SweptValues }[] {
  let variants: { text: string; swept: SweptValues }[];
  if (typeof seat === 'string') {
    variants = [{ text: seat, swept: {} }];
  } else {
    let parts: { params: string[]; swept: SweptValues }[] = [{ params: [], swept: {} }];
    for (const [key, value] of Object.entries(seat.params ?? {})) {
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
  for (const { text } of variants) {
    try {
      parseAgentSpec(text);
    } catch (err) {
      throw new SweepSpecError(`seats.${index}`, (err as Error).message);
    }
  }
  return variants;
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

/** The grid's points, in a fixed order (seat 0's values vary slowest; matchup pairs last). */
export function sweepCells(spec: SweepSpec): SweepCell[] {
  let grids: { agents: string[]; swept: SweptValues }[] = [{ agents: [], swept: {} }];
  spec.seats.forEach((seat, i) => {
    const options = seatVariants(seat, i);
    grids = grids.flatMap((g) => options.map((o) => ({ agents: [...g.agents, o.text], swept: { ...g.swept, ...o.swept } })));
  });
  let compared: [number, number] | undefined = spec.seating === 'swap' ? (spec.swapSeats ?? [0, 1]) : undefined;
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
    boardSets: w.mode === 'fixed' ? w.sets.map((set) => set.map((b) => (typeof b === 'number' ? b : findBoard(b)!))) : undefined,
    deals: spec.deals.count,
    seed: spec.deals.firstSeed,
    seating: spec.seating,
    swapSeats: spec.swapSeats,
    ...(w.mode === 'duplicated' ? { duplicatedSets: w.sets, duplicateSeats: w.seats ?? spec.swapSeats ?? spec.matchup?.seats ?? [0, 1] } : {}),
    sides: spec.sides,
    open: spec.open,
  };
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
  private readonly tournaments: Tournament[];

  constructor(readonly spec: SweepSpec) {
    this.cells = sweepCells(spec);
    this.tournaments = this.cells.map((cell) => new Tournament(cellTournament(spec, cell)));
    this.gamesPerCell = this.tournaments[0].size;
    this.ordersPerDeal = this.tournaments[0].orders.length;
    this.orders = this.tournaments[0].orders;
    this.size = this.cells.length * this.gamesPerCell;
  }

  /** Game k of the sweep; its id is `c<cell>-` followed by the tournament's game id. */
  game(k: number): GamePlan & { cell: number } {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) throw new RangeError(`game index ${k} is outside 0..${this.size - 1}`);
    const cell = Math.floor(k / this.gamesPerCell);
    const plan = this.tournaments[cell].game(k % this.gamesPerCell);
    return { ...plan, id: `c${cell}-${plan.id}`, index: k, cell };
  }
}
