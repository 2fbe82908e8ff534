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
import { MODEL_NAME } from './model-files.js';
import { z } from 'zod';
import { MCTS_AGENTS, MCTS_KINDS, MCTS_PARAMETERS, NO_MODEL, PARAMETER_LIST, REMOVED_PARAMETERS, describeRange, formatParam, mctsDefaults, type MctsField, type MctsKind, type MctsParams, type ParamDef } from './params.js';
import { MINIMAX_AGENT, MINIMAX_LIST, minimaxDefaults, type MinimaxField, type MinimaxParams } from './minimax/params.js';
import { AGENT_NAME, PARAM_KEY, PARAM_VALUE } from './external/manifest.js';

export type { MctsParams } from './params.js';

/** The agents without parameters, with one line each. */
export const SIMPLE_AGENTS = {
  random: 'uniform among the legal moves (each card and action at its cheapest payment)',
  rulebased: "Minenko (2025)'s rule-based player",
  'rulebased-robilliard': 'Robilliard, Fonlupt & Teytaud (2014)\'s rule-based player',
  'rulebased-robilliard-notrade': 'the same player reading "affordable" as payable without buying from the neighbours, so that it never trades: our reading, chosen on the paper\'s Table 2 (docs/deviations.md), used by its presets',
  'rulebased-dawieang': "dawieang (2021)'s nine-rule player",
} as const;
export type SimpleKind = keyof typeof SIMPLE_AGENTS;

/** The network agent (agents/policy.ts): its one line, and its keys with their meaning. */
export const POLICY_AGENT = {
  kind: 'policy',
  summary: 'a trained network (an ONNX file under MODELS_DIR) playing the legal action of highest logit, or sampling them at a temperature',
  keys: {
    model: 'the model file under MODELS_DIR (letters, digits, . _ - and /, ending in .onnx); required',
    temp: 'a number from 0 to 100: 0 plays the highest logit (ties to the lower action index); above 0 samples softmax(logit / temp); default 0',
  },
} as const;

/** An outside agent (agents/external/): installed under AGENTS_DIR by the operator, named by a spec. */
export const EXT_AGENT = {
  kind: 'ext',
  summary: 'an outside agent installed under AGENTS_DIR (wonderlab agents lists them), speaking the agent protocol (docs/agent-protocol.md)',
  keys: {
    name: 'the agent, as installed (its folder under AGENTS_DIR); required',
    time: 'seconds a decision may take (its budget; past twice that the process is killed); default 1',
    fault: "what a fault of the agent does: fail, the game fails naming it (default); forfeit, random plays the seat on and the game is marked (its summary's forfeits)",
  },
} as const;

export const AGENT_KINDS = [...(Object.keys(SIMPLE_AGENTS) as SimpleKind[]), ...MCTS_KINDS, MINIMAX_AGENT.kind, POLICY_AGENT.kind, EXT_AGENT.kind] as const;
export type AgentKind = SimpleKind | MctsKind | 'minimax' | 'policy' | 'ext';

export type AgentSpec =
  | { kind: SimpleKind; text: string }
  | { kind: MctsKind; text: string; params: MctsParams }
  | { kind: 'minimax'; text: string; minimax: MinimaxParams }
  | { kind: 'policy'; text: string; model: string; temp: number }
  /** options: what the spec passes the agent (its handshake), `time` included, as written. */
  | { kind: 'ext'; text: string; name: string; options: Record<string, string> };

/** Defaults of `mcts`: our reading of the thesis's agent. */
export const MCTS_DEFAULTS: MctsParams = mctsDefaults('mcts');

/** Defaults of `mcts-robilliard`: the 2014 paper's agent (enhancements off, as its baseline). */
export const MCTS_ROBILLIARD_DEFAULTS: MctsParams = mctsDefaults('mcts-robilliard');

export const isMctsKind = (kind: string): kind is MctsKind => kind in MCTS_AGENTS;

export class SpecError extends Error {}

const numeric = () => z.string().trim().regex(/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i).transform(Number);

/** The zod schema that reads one parameter's text, from its definition. */
function valueSchema(def: ParamDef): z.ZodType<unknown, string> {
  const range = `expected ${describeRange(def)}`;
  switch (def.type) {
    case 'integer':
      return numeric().pipe(z.number().int().min(def.min!).max(def.max!));
    case 'number':
      return numeric().pipe(z.number().min(def.min!).max(def.max!));
    case 'choice':
      return z.enum(def.values as [string, ...string[]]);
    case 'model':
      return z.string().trim().refine((v) => v === NO_MODEL || MODEL_NAME.test(v));
    case 'perAge':
      return z.string().transform((v, ctx) => {
        const parts = v.split('/').map((p) => p.trim());
        const nums = parts.map(Number);
        if ((parts.length !== 1 && parts.length !== 3) || parts.some((p) => p === '') || nums.some((x) => !Number.isFinite(x) || x < def.min! || x > def.max!)) {
          ctx.addIssue({ code: 'custom', message: range });
          return z.NEVER;
        }
        return (nums.length === 1 ? [nums[0], nums[0], nums[0]] : nums) as [number, number, number];
      });
  }
}

const BY_KEY = new Map(PARAMETER_LIST.map((def) => [def.key, { def, schema: valueSchema(def) }]));
const KNOWN_KEYS = PARAMETER_LIST.map((def) => def.key).join(', ');
const MINIMAX_BY_KEY = new Map(MINIMAX_LIST.map((def) => [def.key, { def, schema: valueSchema(def) }]));
const MINIMAX_KEYS = MINIMAX_LIST.map((def) => def.key).join(', ');

function fail(text: string, detail: string): never {
  throw new SpecError(`agent '${text}': ${detail}`);
}

function parseParams(text: string, kind: MctsKind, raw: Record<string, string>): MctsParams {
  const params = mctsDefaults(kind) as Record<MctsField, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    const known = BY_KEY.get(key);
    if (!known && Object.hasOwn(REMOVED_PARAMETERS, key)) {
      fail(text, `unknown parameter '${key}': removed with issue 41, as an option of one-off readings of the thesis fit or of none (stored results stay reproducible at the commits they record; known: ${KNOWN_KEYS})`);
    }
    if (!known) fail(text, `unknown parameter '${key}' (known: ${KNOWN_KEYS})`);
    const result = known.schema.safeParse(value);
    // Every message names the option, its range and the value given.
    if (!result.success) fail(text, `${key}: expected ${describeRange(known.def)}, got '${value.trim()}'`);
    params[known.def.field] = result.data;
  }
  const p = params as MctsParams;
  if ((p.eval !== 'playout' || p.prior !== 'ucb') && p.model === NO_MODEL) {
    fail(text, `model: eval=${p.eval}, prior=${p.prior} read a network: give one (model=NAME.onnx)`);
  }
  if (p.model !== NO_MODEL && p.eval === 'playout' && p.prior === 'ucb') {
    fail(text, `model: ${p.model} would not be read: use it with eval=net, eval=mix, prior=net or prior=root`);
  }
  // An option that would change nothing is refused, as model is, so that a spec (or a tune) never
  // varies a value its agent does not read.
  if (p.lambda !== MCTS_PARAMETERS.lambda.default && p.eval !== 'mix') {
    fail(text, `lambda: ${p.lambda} weighs eval=mix's two evaluations: give eval=mix (got eval=${p.eval})`);
  }
  if (p.ptemp !== MCTS_PARAMETERS.ptemp.default && p.prior === 'ucb') {
    fail(text, `ptemp: ${p.ptemp} is the temperature of the network's priors: give prior=net or prior=root (got prior=ucb)`);
  }
  // PUCT (prior=net, at every node) reads neither widening nor the real-score bias: UCB's alone.
  for (const key of ['pw', 'pwq', 'kscore'] as const) {
    if (p.prior === 'net' && p[key] !== MCTS_PARAMETERS[key].default) {
      fail(text, `${key}: ${p[key]} is read by UCB1, which prior=net never uses (PUCT at every node): give prior=root (PUCT at the root, UCB1 below) or leave ${key} out`);
    }
  }
  if (p.noise > 0 && p.prior === 'ucb') {
    fail(text, `noise: ${p.noise} mixes Dirichlet noise into the network's priors at the root: give prior=net or prior=root (got prior=ucb)`);
  }
  if (p.alpha !== MCTS_PARAMETERS.alpha.default && p.noise === 0) {
    fail(text, `alpha: ${p.alpha} is the concentration of the root's noise: give noise=ε above 0 (got noise=0)`);
  }
  if (p.batch > 1 && p.eval === 'playout') {
    fail(text, `batch: ${p.batch} leaves a call are for the network's leaf values: give eval=net or eval=mix (got eval=playout)`);
  }
  if (p.batch > 1 && (p.playout === 'mast' || p.opp === 'mast')) {
    // MAST keeps one trail of the moves since its last update; K descents before any update would mix theirs.
    fail(text, `batch: ${p.batch} leaves a call cannot be used with MAST (playout=${p.playout}, opp=${p.opp}): its statistics are updated one simulation at a time`);
  }
  if (p.stop === 'settled' && (p.final !== 'visits' || (p.det === 'pimc' && p.worlds > 1))) {
    // A move's lead in visits bounds what the iterations left can change, a mean reward's does not; the check reads one tree's root (det=pimc's worlds would need their roots summed first).
    fail(text, `stop: 'settled' needs final=visits and one tree (det=is, or det=pimc with worlds=1), got final=${p.final}, det=${p.det}, worlds=${p.worlds}`);
  }
  if (p.reuse === 'on' && (p.tree !== 'joint' || p.det !== 'is')) {
    fail(text, `reuse: 'on' needs tree=joint and det=is (the subtree of the agent's move is followed only through its own decisions), got tree=${p.tree}, det=${p.det}`);
  }
  return p;
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
  if (kind === 'policy') return parsePolicy(text, positional, keyed);
  if (kind === 'ext') return parseExt(text, positional, keyed);
  if (kind === 'minimax') return parseMinimax(text, positional, keyed);
  if (!isMctsKind(kind)) {
    if ((positional ?? keyed ?? '').trim() !== '') fail(text, `'${kind}' takes no parameters`);
    return { kind, text };
  }
  // Keys come from the request: without a prototype, 'constructor' or '__proto__' is just an
  // unknown parameter, never an inherited property or the object's prototype.
  const raw: Record<string, string> = Object.create(null) as Record<string, string>;
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
    return { kind, text, params: parseParams(text, kind, raw) };
  }
  return { kind, text, params: parseParams(text, kind, keyedPairs(text, keyed ?? '')) };
}

/** The key=value pairs of a keyed spec's parentheses, keys lower-cased, each at most once. */
function keyedPairs(text: string, keyed: string): Record<string, string> {
  // Without a prototype, '__proto__' is just an unknown key (see parseAgentSpec).
  const raw: Record<string, string> = Object.create(null) as Record<string, string>;
  if (keyed.trim() === '') return raw;
  for (const pair of keyed.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 0) fail(text, `expected key=value, got '${pair.trim()}'`);
    const key = pair.slice(0, eq).trim().toLowerCase();
    if (key in raw) fail(text, `parameter '${key}' given twice`);
    raw[key] = pair.slice(eq + 1).trim();
  }
  return raw;
}

/** `minimax` or `minimax(depth=3,worlds=4,…)`: keyed only, every key of its table. */
function parseMinimax(text: string, positional: string | undefined, keyed: string | undefined): AgentSpec {
  if (positional !== undefined) fail(text, "expected 'minimax' or 'minimax(key=value,…)' (keys: " + MINIMAX_KEYS + ')');
  const params = minimaxDefaults() as Record<MinimaxField, unknown>;
  for (const [key, value] of Object.entries(keyedPairs(text, keyed ?? ''))) {
    const known = MINIMAX_BY_KEY.get(key);
    if (!known) fail(text, `unknown parameter '${key}' (known: ${MINIMAX_KEYS})`);
    const result = known.schema.safeParse(value);
    if (!result.success) fail(text, `${key}: expected ${describeRange(known.def)}, got '${value.trim()}'`);
    params[known.def.field] = result.data;
  }
  return { kind: 'minimax', text, minimax: params as MinimaxParams };
}

/** `policy(model=NAME, temp=T)`: keyed only, the model required. */
function parsePolicy(text: string, positional: string | undefined, keyed: string | undefined): AgentSpec {
  if (positional !== undefined || keyed === undefined || keyed.trim() === '') fail(text, "expected 'policy(model=NAME.onnx)' or 'policy(model=NAME.onnx,temp=T)'");
  let model: string | undefined;
  let temp = 0;
  for (const pair of keyed.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 0) fail(text, `expected key=value, got '${pair.trim()}'`);
    const key = pair.slice(0, eq).trim().toLowerCase();
    const value = pair.slice(eq + 1).trim();
    if (key === 'model') {
      if (model !== undefined) fail(text, "parameter 'model' given twice");
      if (!MODEL_NAME.test(value)) {
        fail(text, `model: ${POLICY_AGENT.keys.model}, got '${value}'`);
      }
      model = value;
    } else if (key === 'temp') {
      const t = Number(value);
      if (value === '' || !Number.isFinite(t) || t < 0 || t > 100) fail(text, `temp: ${POLICY_AGENT.keys.temp}, got '${value}'`);
      temp = t;
    } else {
      fail(text, `unknown parameter '${key}' (known: model, temp)`);
    }
  }
  if (model === undefined) fail(text, 'model: required (policy(model=NAME.onnx))');
  return { kind: 'policy', text, model, temp };
}

/**
 * `ext(name=AGENT, key=value…)`: keyed only, the name required. The other keys are the agent's own
 * (checked against its manifest at submit), passed to it as written; `time` is the lab's, the
 * decision budget in seconds.
 */
function parseExt(text: string, positional: string | undefined, keyed: string | undefined): AgentSpec {
  if (positional !== undefined || keyed === undefined || keyed.trim() === '') fail(text, "expected 'ext(name=AGENT)' or 'ext(name=AGENT,key=value,…)'");
  const raw = keyedPairs(text, keyed);
  const name = raw.name;
  if (name === undefined) fail(text, 'name: required (ext(name=AGENT), an agent installed under AGENTS_DIR)');
  if (!AGENT_NAME.test(name)) fail(text, `name: lower-case letters, digits, '.', '_' and '-' (the agent's folder under AGENTS_DIR), got '${name}'`);
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'name') continue;
    if (!PARAM_KEY.test(key)) fail(text, `parameter '${key}': a name is a lower-case letter, then letters, digits and '_'`);
    if (!PARAM_VALUE.test(value)) fail(text, `${key}: a value is 1 to 64 letters, digits and . _ + - /, got '${value}'`);
    if (key === 'fault' && value !== 'fail' && value !== 'forfeit') fail(text, `fault: fail or forfeit, got '${value}'`);
    if (key === 'time') {
      const t = Number(value);
      if (!Number.isFinite(t) || t <= 0 || t > 3600) fail(text, `time: ${EXT_AGENT.keys.time} (above 0, at most 3600), got '${value}'`);
    }
    params[key] = value;
  }
  return { kind: 'ext', text, name, options: params };
}

/** Parses a `;`-separated list of specs, one per seat; errors name the seat as sweeps and the dashboard do, from 0. */
export function parseAgentList(input: string): AgentSpec[] {
  const parts = input.split(';');
  return parts.map((part, i) => {
    try {
      return parseAgentSpec(part);
    } catch (err) {
      if (err instanceof SpecError && parts.length > 1) throw new SpecError(`seat ${i} (seats 0–${parts.length - 1}): ${err.message}`);
      throw err;
    }
  });
}

/**
 * The keyed form with only the parameters that differ from the kind's defaults: one spelling per
 * agent, so `mcts:500,10,100` and `mcts(it=500)` compare equal. It is also the one name an agent is
 * shown by (displayName), as the ladder shows it. `keep`: keys written even at their default value
 * (a sweep's swept parameters: its cell at the default C is `mcts(c=0.4)`, not a bare `mcts`
 * that does not say which value it had).
 */
export function canonicalSpec(spec: AgentSpec, keep: readonly string[] = []): string {
  if (spec.kind === 'policy') return `policy(model=${spec.model}${spec.temp !== 0 ? `,temp=${spec.temp}` : ''})`;
  if (spec.kind === 'ext') return `ext(${[`name=${spec.name}`, ...Object.keys(spec.options).sort().map((k) => `${k}=${spec.options[k]}`)].join(',')})`;
  if (spec.kind === 'minimax') {
    const defaults = minimaxDefaults();
    const parts = MINIMAX_LIST.filter((def) => keep.includes(def.key) || formatParam(spec.minimax[def.field]) !== formatParam(defaults[def.field])).map((def) => `${def.key}=${formatParam(spec.minimax[def.field])}`);
    return parts.length === 0 ? 'minimax' : `minimax(${parts.join(',')})`;
  }
  if (!isMctsKind(spec.kind) || !('params' in spec)) return spec.kind;
  const defaults = mctsDefaults(spec.kind);
  const parts: string[] = [];
  for (const def of PARAMETER_LIST) {
    const v = formatParam(spec.params[def.field]);
    if (keep.includes(def.key) || v !== formatParam(defaults[def.field])) parts.push(`${def.key}=${v}`);
  }
  return parts.length === 0 ? spec.kind : `${spec.kind}(${parts.join(',')})`;
}

/**
 * An agent as people read it: its canonical spec (`mcts` for `mcts:100,10,100`, `mcts(it=250)` for
 * `mcts:250`), the name the ladder, the sweep page and the CLI all use; a text that is no spec, as
 * it is. Display only: results stay keyed by the spec as submitted.
 */
export function displayName(text: string): string {
  try {
    return canonicalSpec(parseAgentSpec(text));
  } catch {
    return text;
  }
}

/**
 * Columns that name agents in a text table: the display name, and where any agent was submitted
 * in another spelling, that spelling in a column beside it.
 */
export function agentColumns(texts: readonly string[], heading = 'agent'): { header: string[]; cells: (text: string) => string[] } {
  const differs = texts.some((t) => displayName(t) !== t);
  return {
    header: differs ? [heading, 'as submitted'] : [heading],
    cells: (text) => (differs ? [displayName(text), displayName(text) === text ? '' : text] : [text]),
  };
}
