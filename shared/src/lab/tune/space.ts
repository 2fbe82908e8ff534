/**
 * A tune's search space: the options of one agent to search, each read from the agents' one
 * parameter table (agents/params.ts for the MCTS agents, agents/minimax/params.ts for minimax),
 * so that every option of every agent can be tuned by its spec key and an unknown or untunable
 * one is refused naming it. A point of the space is an agent spec string: the base spec with the
 * point's values set.
 *
 * Scales: `linear` and `log` for numbers (a log scale for options that span decades, such as c or
 * it), `integer` (rounded), `choice` (the values listed, or the option's own). Continuous methods
 * (SPSA) work on each dimension mapped to [0, 1] on its scale; discrete ones (NTBEA, racing) on the
 * index of each value.
 */
import { MINIMAX_LIST, PARAMETER_LIST, agentParamTable, canonicalSpec, findAgent, parseAgentSpec, type ParamDef } from '../../agents/index.js';

export type Scale = 'linear' | 'log' | 'integer' | 'choice';

/** One option to search, as a spec asks for it. */
export interface DimensionSpec {
  /** The option's spec key: `c`, `it`, `playout`. */
  key: string;
  scale?: Scale;
  /** Bounds (within the option's own range); default: the option's range. */
  min?: number;
  max?: number;
  /** For a choice, or a number searched over listed values: the values. */
  values?: (string | number)[];
}

export interface Dimension {
  key: string;
  scale: Scale;
  /** The bounds of a continuous dimension; of a discrete one, its value indices (0 to values − 1). */
  min: number;
  max: number;
  /** The values of a discrete dimension (choice, or listed numbers), in order. */
  values?: (string | number)[];
}

/** A refused dimension: its field (`tune.params.2.max`) and why. */
export class SpaceError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'SpaceError';
  }
}

/** Options no search should move: what a decision may cost, the network a search reads. */
const UNTUNABLE = new Set(['time', 'model']);

/** The parameter table of the agent kind of `base` (MCTS kinds and minimax have tunable options; an outside agent, those its manifest types). */
export function tableOf(base: string): readonly (ParamDef & { field: string })[] {
  const spec = parseAgentSpec(base);
  if (spec.kind === 'minimax') return MINIMAX_LIST;
  if ('params' in spec) return PARAMETER_LIST;
  if (spec.kind === 'ext') {
    let table;
    try {
      table = agentParamTable(findAgent(spec.name).manifest);
    } catch (err) {
      throw new SpaceError('tune.agent', (err as Error).message);
    }
    if (table.length) return table;
    throw new SpaceError('tune.agent', `outside agent '${spec.name}' declares no typed parameters to tune (its agent.json's params: type, min, max or values)`);
  }
  throw new SpaceError('tune.agent', `'${base}' has no options to tune (MCTS agents, minimax and outside agents with typed parameters have)`);
}

/** The dimensions of `specs` for the agent `base`, each checked against the parameter table (a SpaceError naming the field). */
export function searchSpace(base: string, specs: readonly DimensionSpec[], field = 'tune.params'): Dimension[] {
  const table = tableOf(base);
  const seen = new Set<string>();
  return specs.map((d, i) => {
    const at = `${field}.${i}`;
    const def = table.find((x) => x.key === d.key);
    if (!def) throw new SpaceError(`${at}.key`, `'${d.key}' is no option of ${parseAgentSpec(base).kind} (its options: ${table.map((x) => x.key).join(', ')})`);
    if (UNTUNABLE.has(d.key) || def.type === 'perAge' || def.type === 'model') throw new SpaceError(`${at}.key`, `'${d.key}' cannot be tuned (${def.type === 'perAge' ? 'a value per Age' : 'it sets what a decision may cost or read, not how it plays'})`);
    if (seen.has(d.key)) throw new SpaceError(`${at}.key`, `'${d.key}' is listed twice`);
    seen.add(d.key);
    if (def.type === 'choice') {
      const values = d.values ?? [...def.values!];
      if (d.scale && d.scale !== 'choice') throw new SpaceError(`${at}.scale`, `'${d.key}' is a choice: its scale is 'choice'`);
      for (const [j, v] of values.entries()) if (!def.values!.includes(String(v))) throw new SpaceError(`${at}.values.${j}`, `'${v}' is not a value of ${d.key} (${def.values!.join(' | ')})`);
      if (values.length < 2) throw new SpaceError(`${at}.values`, 'a choice needs two values or more');
      return { key: d.key, scale: 'choice', min: 0, max: values.length - 1, values };
    }
    const lo = def.min!;
    const hi = def.max!;
    const min = d.min ?? lo;
    const max = d.max ?? hi;
    if (!(min >= lo && min <= hi)) throw new SpaceError(`${at}.min`, `${min} is outside ${d.key}'s range ${lo} to ${hi}`);
    if (!(max >= lo && max <= hi)) throw new SpaceError(`${at}.max`, `${max} is outside ${d.key}'s range ${lo} to ${hi}`);
    if (!(max > min)) throw new SpaceError(`${at}.max`, `expected more than min (${min})`);
    // Numbers listed without a scale are searched as the list (NTBEA, racing), not over their range.
    const scale = d.scale ?? (d.values ? 'choice' : def.type === 'integer' ? 'integer' : 'linear');
    if (scale === 'choice') {
      const values = d.values ?? [];
      if (values.length < 2) throw new SpaceError(`${at}.values`, 'listed values need two or more');
      for (const [j, v] of values.entries()) if (typeof v !== 'number' || v < min || v > max) throw new SpaceError(`${at}.values.${j}`, `expected a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
      return { key: d.key, scale, min: 0, max: values.length - 1, values };
    }
    if (scale === 'log' && min <= 0) throw new SpaceError(`${at}.min`, 'a log scale needs min > 0');
    if (def.type === 'integer' && scale === 'linear') throw new SpaceError(`${at}.scale`, `'${d.key}' is an integer: its scale is 'integer' or 'log'`);
    return { key: d.key, scale, min, max };
  });
}

/** A value of a continuous dimension mapped to [0, 1] on its scale, and back. */
export function toUnit(d: Dimension, value: number): number {
  return d.scale === 'log' ? Math.log(value / d.min) / Math.log(d.max / d.min) : (value - d.min) / (d.max - d.min);
}

export function fromUnit(d: Dimension, u: number): number {
  const x = Math.min(1, Math.max(0, u));
  return d.scale === 'log' ? d.min * (d.max / d.min) ** x : d.min + x * (d.max - d.min);
}

/** A point's value for dimension d as a spec writes it (integers whole, numbers to 6 significant digits). */
function written(d: Dimension, value: string | number, integer: boolean): string {
  if (typeof value === 'string') return value;
  return integer ? String(Math.round(value)) : String(Number(value.toPrecision(6)));
}

/**
 * The spec string of a point: `base` with each dimension's value set, in canonical form. Values:
 * per dimension a number (continuous) or, for a discrete one, its value.
 */
export function specAt(base: string, dims: readonly Dimension[], point: readonly (string | number)[]): string {
  const spec = parseAgentSpec(base);
  const table = tableOf(base);
  const kind = spec.kind;
  const current = canonicalSpec(spec);
  const inner = /^[^(]*\((.*)\)$/.exec(current)?.[1];
  const settings = new Map<string, string>(inner ? inner.split(',').map((kv) => kv.split('=') as [string, string]) : []);
  dims.forEach((d, i) => {
    const def = table.find((x) => x.key === d.key)!;
    settings.set(d.key, written(d, point[i], def.type === 'integer'));
  });
  return canonicalSpec(parseAgentSpec(`${kind}(${[...settings].map(([k, v]) => `${k}=${v}`).join(',')})`));
}
