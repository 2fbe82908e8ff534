/**
 * The published results the lab reproduces, as printed (published-tables.json): each row's win rate in % with its 95 %
 * half-width, and the mean VP where the paper gives it. A row names which of our numbers it is
 * compared with: a cell (by its swept values or its agents) and the agent by its seat in the spec,
 * or, for a seating-order table, one seat order of the cell. `reason` explains a row that differs
 * (REPRODUCTION.md's "reason" column), `cause` the table's main cause (its summary); they are
 * findings, so they are data in published-reasons.json (by table id and row label), not code:
 * each a list of findings, each marked tested, with the run and figure that tested it, or not.
 */
import { z } from 'zod';
import PRINTED from './published-tables.json' with { type: 'json' };
import REASONS from './published-reasons.json' with { type: 'json' };

export interface PublishedRow {
  label: string;
  /** The spec's seat whose agent the row is about. */
  seat: number;
  /** [win rate %, 95 % half-width in points], as printed. */
  paper: readonly [number, number];
  /** Mean VP, where printed. */
  vp?: number;
  /** The cell: its swept values… */
  swept?: Readonly<Record<string, number | string>>;
  /** …or its agents, in seat order. */
  agents?: readonly string[];
  /** A seating-order table's seat order (index into the sweep's orders), or 'all' for every order pooled. */
  order?: number | 'all';
  reason?: string;
  /** A remark on how the row was transcribed (e.g. a printing oddity kept as printed). */
  note?: string;
}

export type TieRule = 'strict' | 'unstated';

export interface PublishedTable {
  /** `thesis-7.4`: what a sweep spec's `paper` names. */
  id: string;
  title: string;
  /** The preset (presets/<preset>.json) that plays it. */
  preset: string;
  /** cells: a row is a cell's agent; orders: a row is an agent in one seat order (Table 7.1). */
  kind: 'cells' | 'orders';
  /**
   * How the paper counts a tie for the most VP: `strict` where it says a tie is no win (the
   * thesis), `unstated` where it does not say (the 2014 paper), so that a reader sees our rows
   * both ways: strictly, and with the tie going to the seat with more coins, as the rulebook has it.
   */
  ties: TieRule;
  reason?: string;
  /** The main cause of the table's rows that differ, in one line (REPRODUCTION.md's summary). */
  cause?: string;
  rows: readonly PublishedRow[];
}

/** One finding of a cause or reason: what it says, and the run and figure that tested it (absent: not tested). */
export interface Finding {
  text: string;
  tested?: string;
}

/**
 * Findings as the report prints them: each marked *tested*, naming what tested it, or *not
 * tested*, so that no cause reads as shown without an experiment behind it.
 */
export function findingsText(findings: readonly Finding[]): string {
  return findings.map((f) => (f.tested ? `${f.text} (*tested*: ${f.tested})` : `${f.text} (*not tested*)`)).join('; ');
}

const ROW: z.ZodType<PublishedRow> = z.strictObject({
  label: z.string(),
  seat: z.number().int().min(0),
  paper: z.tuple([z.number().min(0).max(100), z.number().positive()]).readonly(),
  vp: z.number().optional(),
  swept: z.record(z.string(), z.union([z.number(), z.string()])).readonly().optional(),
  agents: z.array(z.string()).readonly().optional(),
  order: z.union([z.number().int().min(0), z.literal('all')]).optional(),
  note: z.string().optional(),
});
const TABLE = z.strictObject({
  id: z.string(),
  title: z.string(),
  preset: z.string(),
  kind: z.enum(['cells', 'orders']),
  ties: z.enum(['strict', 'unstated']),
  rows: z.array(ROW).readonly(),
});

/** The tables as printed, without the reasons: data (published-tables.json, one row a line), checked as it loads. */
const TABLES: readonly PublishedTable[] = z.array(TABLE).parse(PRINTED);

const FINDINGS = z.array(z.strictObject({ text: z.string().min(1), tested: z.string().min(1).optional() })).min(1);
/** Why rows differ, by table id: findings, kept as data beside this file so that a new result changes no code. */
export const PUBLISHED_REASONS = z
  .record(z.string(), z.strictObject({ cause: FINDINGS.optional(), table: FINDINGS.optional(), rows: z.record(z.string(), FINDINGS).optional() }))
  .parse(REASONS);

/** Each table with its reasons (published-reasons.json) in place, as the report prints them. */
export const PUBLISHED_TABLES: readonly PublishedTable[] = TABLES.map((t) => {
  const given = PUBLISHED_REASONS[t.id];
  return {
    ...t,
    ...(given?.table ? { reason: findingsText(given.table) } : {}),
    ...(given?.cause ? { cause: findingsText(given.cause) } : {}),
    rows: t.rows.map((row) => (given?.rows?.[row.label] ? { ...row, reason: findingsText(given.rows[row.label]) } : row)),
  };
});

/** The table a sweep spec's `paper` names. */
export function publishedTable(id: string): PublishedTable | undefined {
  return PUBLISHED_TABLES.find((t) => t.id === id);
}

export const PUBLISHED_IDS = PUBLISHED_TABLES.map((t) => t.id) as [string, ...string[]];
