/**
 * A tournament: agents, a setup and a seating, expanded into game plans; and the per-agent
 * summary of their results.
 */
import { agentColumns, displayName, parseAgentSpec } from '../../agents/index.js';
import { MAX_PLAYERS, MIN_PLAYERS, type SideChoice } from '../../engine/index.js';
import type { GamePlan, GameSummary } from './game.js';
import {
  DEFAULT_PAIR,
  DUPLICATED_DEALS,
  DUPLICATED_SETS,
  ROBILLIARD_DEALS,
  ROBILLIARD_SETS,
  THESIS_DEALS,
  THESIS_WONDER_SETS,
  deriveSeed,
  drawBoardSets,
  drawDuplicatedSets,
  seatOrders,
  type Seating,
  type Setup,
} from './setups.js';
import { Z95, describe, normalHalfWidth, wilson, type Interval, type Summary } from '../stats/stats.js';

export interface TournamentOptions {
  /** Agent spec per seat, as given. */
  agents: string[];
  setup: Setup;
  /** Board id per seat for each set, when setup is 'fixed'. */
  boardSets?: number[][];
  /** Deals for the 'random' setup; for the others, deals per board set. */
  deals?: number;
  seed: number;
  seating: Seating;
  /** The two seats whose agents trade places under seating 'swap' (default 0 and 1). */
  swapSeats?: [number, number];
  /** Setup 'duplicated': the two seats sharing a board (default: swapSeats) and the number of sets (default 5). */
  duplicateSeats?: [number, number];
  duplicatedSets?: number;
  sides: SideChoice | 'random';
  open: boolean;
}

/**
 * A tournament's games, addressable by index without listing them all (a sweep may hold a
 * million): game k is board set ⌊k / (deals · orders)⌋, then deal, then seat order.
 */
export class Tournament {
  readonly sets: readonly (readonly number[] | undefined)[];
  readonly deals: number;
  readonly orders: readonly (readonly number[])[];
  readonly size: number;

  constructor(readonly options: TournamentOptions) {
    const o = options;
    const n = o.agents.length;
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) throw new Error(`a game needs ${MIN_PLAYERS} to ${MAX_PLAYERS} agents, got ${n}`);
    for (const a of o.agents) parseAgentSpec(a);
    if (o.setup === 'random') {
      this.sets = [undefined];
      this.deals = o.deals ?? 1000;
    } else if (o.setup === 'thesis') {
      if (n !== 3) throw new Error(`the thesis setup is for 3 players, got ${n} agents`);
      this.sets = THESIS_WONDER_SETS;
      this.deals = o.deals ?? THESIS_DEALS;
    } else if (o.setup === 'robilliard') {
      this.sets = drawBoardSets(o.seed, ROBILLIARD_SETS, n);
      this.deals = o.deals ?? ROBILLIARD_DEALS;
    } else if (o.setup === 'duplicated') {
      const pair = o.duplicateSeats ?? o.swapSeats ?? DEFAULT_PAIR;
      if (pair[0] === pair[1] || pair.some((q) => q < 0 || q >= n)) throw new Error(`duplicated boards need two different seats of ${n}, got ${pair.join(' and ')}`);
      this.sets = drawDuplicatedSets(o.seed, o.duplicatedSets ?? DUPLICATED_SETS, n, pair);
      this.deals = o.deals ?? DUPLICATED_DEALS;
    } else {
      if (!o.boardSets || o.boardSets.length === 0) throw new Error("the 'fixed' setup needs boardSets");
      for (const set of o.boardSets) if (set.length !== n) throw new Error(`a board set has ${set.length} boards for ${n} seats`);
      this.sets = o.boardSets;
      this.deals = o.deals ?? 50;
    }
    this.orders = seatOrders(o.seating, n, o.swapSeats);
    this.size = this.sets.length * this.deals * this.orders.length;
  }

  game(k: number): GamePlan {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) throw new RangeError(`game index ${k} is outside 0..${this.size - 1}`);
    const o = this.options;
    const seating = k % this.orders.length;
    const deal = Math.floor(k / this.orders.length) % this.deals;
    const setIndex = Math.floor(k / (this.orders.length * this.deals));
    const boards = this.sets[setIndex];
    return {
      id: `${boards ? `s${setIndex}-` : ''}d${deal}-o${seating}`,
      index: k,
      // The same card seeds for every board set: 21 sets × 50 deals means 50 card seeds.
      seed: deriveSeed(o.seed, 'deal', deal),
      set: boards ? setIndex : -1,
      deal,
      seating,
      agents: this.orders[seating].map((a) => o.agents[a]),
      boards: boards ? [...boards] : undefined,
      sides: o.sides,
      open: o.open,
      ...(o.setup === 'duplicated' ? { duplicateBoards: true } : {}),
    };
  }
}

/** Every game of the tournament, in a fixed order: board set, deal, seat order. */
export function planTournament(o: TournamentOptions): GamePlan[] {
  const t = new Tournament(o);
  return Array.from({ length: t.size }, (_, k) => t.game(k));
}

export interface AgentStanding {
  /** The spec as given; seats with the same spec are pooled. */
  agent: string;
  /** Seat-games played (a spec in two seats counts twice per game). */
  games: number;
  /** Strictly the most VP. */
  wins: number;
  /** Most VP shared with another seat. */
  ties: number;
  winRate: number;
  /** Half-width of the normal-approximation 95 % interval (the papers' ±). */
  winRateHalfWidth: number;
  wilson: Interval;
  vp: Summary;
  decisionMs: number;
  /** MCTS iterations per second of thinking (0 for other agents). */
  iterationsPerSecond: number;
  cutShort: number;
}

interface Tally {
  games: number;
  wins: number;
  ties: number;
  vps: number[];
  ms: number;
  decisions: number;
  iterations: number;
  cut: number;
}

/** Per-agent standings, fed one game at a time (a long run keeps only these tallies). */
export class Standings {
  private readonly by = new Map<string, Tally>();

  add(g: GameSummary): void {
    const best = Math.max(...g.players.map((p) => p.score.total));
    for (const p of g.players) {
      let a = this.by.get(p.agent);
      if (!a) this.by.set(p.agent, (a = { games: 0, wins: 0, ties: 0, vps: [], ms: 0, decisions: 0, iterations: 0, cut: 0 }));
      a.games++;
      if (p.winner) a.wins++;
      else if (p.score.total === best) a.ties++;
      a.vps.push(p.score.total);
      a.ms += p.decisionMs * p.decisions;
      a.decisions += p.decisions;
      a.iterations += p.iterations;
      a.cut += p.cutShort;
    }
  }

  rows(): AgentStanding[] {
    return [...this.by].map(([agent, a]) => ({
      agent,
      games: a.games,
      wins: a.wins,
      ties: a.ties,
      winRate: a.wins / a.games,
      winRateHalfWidth: normalHalfWidth(a.wins, a.games, Z95),
      wilson: wilson(a.wins, a.games),
      vp: describe(a.vps),
      decisionMs: a.decisions ? a.ms / a.decisions : 0,
      iterationsPerSecond: a.ms > 0 ? a.iterations / (a.ms / 1000) : 0,
      cutShort: a.cut,
    }));
  }
}

export function standings(games: readonly GameSummary[]): AgentStanding[] {
  const s = new Standings();
  for (const g of games) s.add(g);
  return s.rows();
}

const pct = (x: number) => (100 * x).toFixed(1);

/** The standings as an aligned text table. */
export function formatStandings(rows: readonly AgentStanding[]): string {
  const agents = agentColumns(rows.map((r) => r.agent));
  const header = [...agents.header, 'games', 'wins', 'ties', 'win % ± 95%', 'Wilson 95%', 'mean VP (sd)', 'ms/decision', 'iter/s'];
  const body = rows.map((r) => [
    ...agents.cells(r.agent),
    String(r.games),
    String(r.wins),
    String(r.ties),
    `${pct(r.winRate)} ± ${pct(r.winRateHalfWidth)}`,
    `[${pct(r.wilson.low)}, ${pct(r.wilson.high)}]`,
    `${r.vp.mean.toFixed(1)} (${r.vp.sd.toFixed(1)})`,
    r.decisionMs.toFixed(r.decisionMs < 10 ? 2 : 0),
    r.iterationsPerSecond > 0 ? String(Math.round(r.iterationsPerSecond)) : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < agents.header.length ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const cut = rows.filter((r) => r.cutShort > 0).map((r) => `${displayName(r.agent)}: ${r.cutShort} decisions cut short by the time limit`);
  return [line(header), ...body.map(line), ...cut].join('\n');
}
