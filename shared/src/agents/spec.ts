/**
 * Agent specs: plain strings that name an agent and its parameters.
 *
 * Two syntaxes, both accepted everywhere a spec is:
 * - the thesis's (Minenko 2025): `random`, `rulebased`, `mcts:iterations,time_limit_s,max_depth`
 *   (trailing parts may be left out);
 * - keyed, for every parameter: `mcts(it=500,c=0.4,depth=100,pw=0.35)`. Keys may come in any
 *   order; a key left out keeps the kind's default.
 * A list of specs is separated by `;` (`random;mcts:100,10,4;rulebased`).
 *
 * Parsing is validated with zod; a bad spec throws a SpecError that names the spec and the part
 * that is wrong.
 */
import { z } from 'zod';

export const AGENT_KINDS = ['random', 'rulebased', 'rulebased-robilliard', 'rulebased-dawieang', 'mcts', 'mcts-robilliard'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export interface MctsParams {
  /** Iterations per decision in Age I; Ages II and III multiply it by `ageScale`. */
  iterations: number;
  /** Cap on the seconds one decision may take (0: none). Hitting it is recorded. */
  timeLimit: number;
  /** Turns simulated from the decision (tree and playout); beyond, the VP standing decides. */
  depth: number;
  /** Exploration constant of UCB. */
  c: number;
  /** 'age': C in Age I, C/2 in Age II, C/4 in Age III. */
  cSchedule: 'const' | 'age';
  /** 'win': 1 for strictly the most VP, else 0; 'rank': (n − rank)/(n − 1); 'margin': VP lead. */
  reward: 'win' | 'rank' | 'margin';
  /**
   * 'joint': one tree level per turn for this agent, the other seats' moves drawn by the playout
   * policy inside the step (the thesis). 'seats': one level per acting seat, each choosing by its
   * own reward (Robilliard et al. 2014).
   */
  tree: 'joint' | 'seats';
  /** Payments offered in the tree: the cheapest per card and action, or every undominated one. */
  trades: 'cheapest' | 'all';
  /** Progressive widening exponent P (0: off): at the m-th visit, only the first ⌊Q·m^P⌋ moves. */
  pw: number;
  /** Progressive widening factor Q. */
  pwq: number;
  /** Real-score bias K_score: adds K_score / ln(1 + n_j) · (mean final VP / 100). */
  kscore: number;
  /**
   * Playout policy (also the other seats' moves inside a joint tree step): uniform among legal
   * moves; uniform among non-discards when there are any; or the thesis's rule-based player.
   */
  playout: 'random' | 'nodiscard' | 'rulebased';
  /** The other seats' policy in simulations when it differs from `playout` ('same': it does not). */
  opponents: 'same' | 'random' | 'nodiscard' | 'rulebased';
  /** Per Age, the cap on trade-search branches in playouts (0: none), e.g. 8/24/32. */
  tradeLimit: readonly [number, number, number];
  /** Per Age, the factor on `iterations`. */
  ageScale: readonly [number, number, number];
  /** The move returned: the most visited, or the best mean reward. */
  final: 'visits' | 'mean';
}

export type AgentSpec =
  | { kind: 'random' | 'rulebased' | 'rulebased-robilliard' | 'rulebased-dawieang'; text: string }
  | { kind: 'mcts' | 'mcts-robilliard'; text: string; params: MctsParams };

/** Defaults of `mcts`: the thesis's agent. */
export const MCTS_DEFAULTS: MctsParams = {
  iterations: 100,
  timeLimit: 10,
  depth: 100,
  c: 0.4,
  cSchedule: 'const',
  reward: 'win',
  tree: 'joint',
  trades: 'cheapest',
  pw: 0,
  pwq: 1,
  kscore: 0,
  playout: 'random',
  opponents: 'same',
  tradeLimit: [0, 0, 0],
  ageScale: [1, 1.5, 2],
  final: 'visits',
};

/** Defaults of `mcts-robilliard`: the 2014 paper's agent (enhancements off, as its baseline). */
export const MCTS_ROBILLIARD_DEFAULTS: MctsParams = {
  ...MCTS_DEFAULTS,
  iterations: 1000,
  timeLimit: 0,
  c: 0.3,
  tree: 'seats',
  trades: 'all',
  playout: 'nodiscard',
  tradeLimit: [8, 24, 32],
};

export class SpecError extends Error {}

/** Keyed-form names of the parameters, in the order the canonical form lists them. */
const KEYS = {
  it: 'iterations',
  time: 'timeLimit',
  depth: 'depth',
  c: 'c',
  cs: 'cSchedule',
  reward: 'reward',
  tree: 'tree',
  trades: 'trades',
  pw: 'pw',
  pwq: 'pwq',
  kscore: 'kscore',
  playout: 'playout',
  opp: 'opponents',
  tl: 'tradeLimit',
  scale: 'ageScale',
  final: 'final',
} as const satisfies Record<string, keyof MctsParams>;
type Key = keyof typeof KEYS;

const number = (what: string) =>
  z.string().trim().regex(/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i, { error: `expected ${what}` }).transform(Number);
const integer = (min: number, max: number) =>
  number(`an integer from ${min} to ${max}`).pipe(z.number().int({ error: `expected an integer from ${min} to ${max}` }).min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }));
const real = (min: number, max: number) =>
  number(`a number from ${min} to ${max}`).pipe(z.number().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }));
const choice = <T extends string>(...values: [T, ...T[]]) =>
  z.enum(values, { error: `expected one of ${values.join(' | ')}` });
/** One number for all three Ages, or three separated by '/'. */
const perAge = (min: number, max: number) =>
  z
    .string()
    .transform((v, ctx) => {
      const parts = v.split('/').map((p) => p.trim());
      if (parts.length !== 1 && parts.length !== 3) {
        ctx.addIssue({ code: 'custom', message: `expected one number or three separated by '/' (Ages I/II/III)` });
        return z.NEVER;
      }
      const nums = parts.map(Number);
      if (parts.some((p) => p === '') || nums.some((x) => !Number.isFinite(x) || x < min || x > max)) {
        ctx.addIssue({ code: 'custom', message: `expected numbers from ${min} to ${max}` });
        return z.NEVER;
      }
      return (nums.length === 1 ? [nums[0], nums[0], nums[0]] : nums) as [number, number, number];
    });

const keyedSchema = z.strictObject({
  it: integer(1, 10_000_000),
  time: real(0, 86_400),
  depth: integer(1, 100),
  c: real(0, 100),
  cs: choice('const', 'age'),
  reward: choice('win', 'rank', 'margin'),
  tree: choice('joint', 'seats'),
  trades: choice('cheapest', 'all'),
  pw: real(0, 1),
  pwq: real(0.01, 100),
  kscore: real(0, 1000),
  playout: choice('random', 'nodiscard', 'rulebased'),
  opp: choice('same', 'random', 'nodiscard', 'rulebased'),
  tl: perAge(0, 100_000),
  scale: perAge(0.01, 100),
  final: choice('visits', 'mean'),
}).partial();

function fail(text: string, detail: string): never {
  throw new SpecError(`agent '${text}': ${detail}`);
}

function parseParams(text: string, kind: 'mcts' | 'mcts-robilliard', raw: Record<string, string>): MctsParams {
  const result = keyedSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      fail(text, `unknown parameter ${issue.keys.map((k) => `'${k}'`).join(', ')} (known: ${Object.keys(KEYS).join(', ')})`);
    }
    const key = String(issue.path[0]);
    fail(text, `${key}: ${issue.message}${key in raw ? `, got '${raw[key]}'` : ''}`);
  }
  const params: MctsParams = { ...(kind === 'mcts' ? MCTS_DEFAULTS : MCTS_ROBILLIARD_DEFAULTS) };
  for (const [key, value] of Object.entries(result.data) as [Key, unknown][]) {
    if (value !== undefined) (params as unknown as Record<string, unknown>)[KEYS[key]] = value;
  }
  return params;
}

/** Parses one agent spec; throws SpecError naming the bad part. */
export function parseAgentSpec(input: string): AgentSpec {
  const text = input.trim();
  if (text === '') throw new SpecError('empty agent spec (expected one of ' + AGENT_KINDS.join(', ') + ')');
  const m = /^([A-Za-z][A-Za-z-]*)\s*(?::(.*)|\((.*)\))?$/s.exec(text);
  if (!m) fail(text, "expected 'kind', 'kind:a,b,c' or 'kind(key=value,…)'");
  const kind = m[1].toLowerCase() as AgentKind;
  if (!AGENT_KINDS.includes(kind)) fail(text, `unknown agent kind '${m[1]}' (known: ${AGENT_KINDS.join(', ')})`);
  const positional = m[2];
  const keyed = m[3];
  if (kind !== 'mcts' && kind !== 'mcts-robilliard') {
    if ((positional ?? keyed ?? '').trim() !== '') fail(text, `'${kind}' takes no parameters`);
    return { kind, text };
  }
  const raw: Record<string, string> = {};
  if (positional !== undefined) {
    // The thesis's order: iterations, time limit in seconds, maximum depth.
    const parts = positional.split(',');
    if (parts.length > 3) fail(text, `expected at most 3 values (iterations,time_limit_s,max_depth), got ${parts.length}`);
    (['it', 'time', 'depth'] as const).forEach((key, i) => {
      if (i < parts.length) {
        if (parts[i].trim() === '') fail(text, `${key}: missing value (position ${i + 1})`);
        raw[key] = parts[i];
      }
    });
  } else if (keyed !== undefined && keyed.trim() !== '') {
    for (const pair of keyed.split(',')) {
      const eq = pair.indexOf('=');
      if (eq < 0) fail(text, `expected key=value, got '${pair.trim()}'`);
      const key = pair.slice(0, eq).trim().toLowerCase();
      if (key in raw) fail(text, `parameter '${key}' given twice`);
      raw[key] = pair.slice(eq + 1).trim();
    }
  }
  return { kind, text, params: parseParams(text, kind, raw) };
}

/** Parses a `;`-separated list of specs; errors say which entry (1-based) is wrong. */
export function parseAgentList(input: string): AgentSpec[] {
  const parts = input.split(';');
  return parts.map((part, i) => {
    try {
      return parseAgentSpec(part);
    } catch (err) {
      if (err instanceof SpecError && parts.length > 1) throw new SpecError(`agent ${i + 1} of ${parts.length}: ${err.message}`);
      throw err;
    }
  });
}

function formatValue(v: unknown): string {
  return Array.isArray(v) ? (v.every((x) => x === v[0]) ? String(v[0]) : v.join('/')) : String(v);
}

/**
 * The keyed form with only the parameters that differ from the kind's defaults: one spelling per
 * agent, so `mcts:500,10,100` and `mcts(it=500)` compare equal.
 */
export function canonicalSpec(spec: AgentSpec): string {
  if (spec.kind !== 'mcts' && spec.kind !== 'mcts-robilliard') return spec.kind;
  const defaults = spec.kind === 'mcts' ? MCTS_DEFAULTS : MCTS_ROBILLIARD_DEFAULTS;
  const parts: string[] = [];
  for (const [key, field] of Object.entries(KEYS) as [Key, keyof MctsParams][]) {
    const v = formatValue(spec.params[field]);
    if (v !== formatValue(defaults[field])) parts.push(`${key}=${v}`);
  }
  return parts.length === 0 ? spec.kind : `${spec.kind}(${parts.join(',')})`;
}

/** The keyed form with every parameter spelled out. */
export function fullSpec(spec: AgentSpec): string {
  if (spec.kind !== 'mcts' && spec.kind !== 'mcts-robilliard') return spec.kind;
  const parts = (Object.entries(KEYS) as [Key, keyof MctsParams][]).map(([key, field]) => `${key}=${formatValue(spec.params[field])}`);
  return `${spec.kind}(${parts.join(',')})`;
}
