/**
 * Outside agents' manifests: an agent installed by the operator under AGENTS_DIR, one folder per
 * agent holding `agent.json` (docs/agent-protocol.md#installing-an-agent). A spec only names an
 * installed agent (`ext(name=…)`): it can never give a command or a path. The manifest says how
 * to start the agent (its command, run in its folder), the player counts it plays and the
 * parameters it accepts; the lab records the manifest and a hash of the folder's files with the
 * sweep (agentFingerprint).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { MODEL_NAME } from '../model-files.js';

export class ExternalAgentError extends Error {}

/** The protocol version this lab speaks (docs/agent-protocol.md). */
export const PROTOCOL_VERSION = 1;

/** An agent's name: its folder's name too, so never a path. */
export const AGENT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A parameter's name and value as a spec gives them (ext(name=x, temp=0.5)): plain words, never quoting. */
export const PARAM_KEY = /^[a-z][a-z0-9_]{0,31}$/;
export const PARAM_VALUE = /^[A-Za-z0-9_.+\-/]{1,64}$/;

/** AGENTS_DIR when it is not set: the repository's `agents/`, which holds the examples. */
export const DEFAULT_AGENTS_DIR = 'agents';

/** A parameter the lab can check and tune: a number, an integer or a choice, with its default. */
const TypedParam = z
  .strictObject({
    description: z.string().min(1).max(300),
    type: z.enum(['number', 'integer', 'choice']),
    min: z.number().optional(),
    max: z.number().optional(),
    values: z.array(z.string().regex(PARAM_VALUE)).min(2).optional(),
    default: z.union([z.number(), z.string()]),
  })
  .refine((p) => (p.type === 'choice' ? p.values !== undefined : p.min !== undefined && p.max !== undefined && p.min < p.max), { message: 'a number or integer gives min < max; a choice gives its values' })
  .refine((p) => (p.type === 'choice' ? p.values!.includes(String(p.default)) : typeof p.default === 'number' && p.default >= p.min! && p.default <= p.max!), { message: 'the default must be one of its values, or within min and max' });

/**
 * A network the agent reads, by its name under the lab's MODELS_DIR (as policy(model=…) names one):
 * checked at submit as the lab's own agents' networks are, and recorded with its hash in the
 * sweep. Without a default a spec must give it. At most one per agent.
 */
const ModelParam = z.strictObject({
  description: z.string().min(1).max(300),
  type: z.literal('model'),
  default: z.string().regex(MODEL_NAME).optional(),
});

const Manifest = z.strictObject({
  protocol: z.literal(PROTOCOL_VERSION),
  name: z.string().regex(AGENT_NAME),
  version: z.string().min(1).max(64),
  summary: z.string().min(1).max(300),
  /** argv; run with the agent's folder as its working directory. */
  command: z.array(z.string().min(1)).min(1),
  /** The player counts it plays. */
  players: z.array(z.number().int().min(3).max(7)).min(1),
  /**
   * The parameters a spec may pass it (through the handshake): each with what it means, or with
   * its type and range as well — those the lab can check at submit and tune (spec.tune).
   */
  params: z
    .record(z.string().regex(PARAM_KEY), z.union([z.string(), TypedParam, ModelParam]))
    .default({})
    .refine((params) => Object.values(params).filter((p) => typeof p !== 'string' && p.type === 'model').length <= 1, { message: 'at most one parameter of type model' }),
});
export type AgentManifest = z.infer<typeof Manifest>;

/** An installed agent: its manifest and folder. */
export interface InstalledAgent {
  manifest: AgentManifest;
  dir: string;
}

/** The folders agents are looked up in, in order: AGENTS_DIR's entries (':'-separated), resolved from `base`. */
export function agentsDirs(value = process.env.AGENTS_DIR, base = process.cwd()): string[] {
  return (value || DEFAULT_AGENTS_DIR)
    .split(delimiter)
    .filter((d) => d !== '')
    .map((d) => resolve(base, d));
}

/** The installed agent of this name (ExternalAgentError naming what is wrong otherwise). */
export function findAgent(name: string, dirs = agentsDirs()): InstalledAgent {
  if (!AGENT_NAME.test(name)) throw new ExternalAgentError(`outside agent '${name}': a name is lower-case letters, digits, '.', '_' and '-' (it is the agent's folder under AGENTS_DIR)`);
  for (const base of dirs) {
    const dir = join(base, name);
    if (!existsSync(join(dir, 'agent.json'))) continue;
    // A folder linked from elsewhere is refused: what runs is what the operator put under AGENTS_DIR.
    const real = realpathSync(dir);
    if (!real.startsWith(realpathSync(base) + sep)) throw new ExternalAgentError(`outside agent '${name}': its folder leads outside AGENTS_DIR`);
    return { manifest: readManifest(name, dir), dir: real };
  }
  throw new ExternalAgentError(`outside agent '${name}': not installed (no ${name}/agent.json under AGENTS_DIR: ${dirs.join(delimiter)})`);
}

function readManifest(name: string, dir: string): AgentManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8'));
  } catch (err) {
    throw new ExternalAgentError(`outside agent '${name}': agent.json: ${(err as Error).message}`);
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ExternalAgentError(`outside agent '${name}': agent.json: ${issue.path.join('.') || '(manifest)'}: ${issue.message}`);
  }
  if (parsed.data.name !== name) throw new ExternalAgentError(`outside agent '${name}': agent.json names it '${parsed.data.name}' (the name is its folder's)`);
  return parsed.data;
}

/** Every installed agent, by name (the first folder's where two have one), with the problems of those that cannot be read. */
export function listAgents(dirs = agentsDirs()): { agents: InstalledAgent[]; problems: string[] } {
  const agents = new Map<string, InstalledAgent>();
  const problems: string[] = [];
  for (const base of dirs) {
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base).sort()) {
      if (agents.has(entry) || !existsSync(join(base, entry, 'agent.json'))) continue;
      try {
        agents.set(entry, findAgent(entry, [base]));
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
  }
  return { agents: [...agents.values()], problems };
}

/** Checks a spec's parameters against the manifest's: each one it declares, a typed one within its range (ExternalAgentError naming the first wrong). */
export function checkAgentParams(agent: InstalledAgent, params: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(params)) {
    if (key === 'time' || key === 'fault') continue;
    if (!Object.hasOwn(agent.manifest.params, key)) {
      const known = Object.keys(agent.manifest.params);
      throw new ExternalAgentError(`outside agent '${agent.manifest.name}': unknown parameter '${key}' (${known.length ? `it takes ${known.join(', ')}, and the lab's time and fault` : "it takes only the lab's time and fault"})`);
    }
    const def = agent.manifest.params[key];
    if (typeof def === 'string') continue;
    if (def.type === 'model') {
      if (!MODEL_NAME.test(value)) throw new ExternalAgentError(`outside agent '${agent.manifest.name}': ${key}: expected a model file under MODELS_DIR (letters, digits, . _ - and /, ending in .onnx), got '${value}'`);
      continue;
    }
    const n = Number(value);
    const ok = def.type === 'choice' ? def.values!.includes(value) : value !== '' && Number.isFinite(n) && n >= def.min! && n <= def.max! && (def.type === 'number' || Number.isInteger(n));
    if (!ok) throw new ExternalAgentError(`outside agent '${agent.manifest.name}': ${key}: expected ${describeTyped(def)}, got '${value}'`);
  }
  const model = modelParam(agent.manifest);
  if (model && params[model[0]] === undefined && model[1].default === undefined) {
    throw new ExternalAgentError(`outside agent '${agent.manifest.name}': ${model[0]}: required (a model file under MODELS_DIR, e.g. ${model[0]}=dqn-2021/3p-rule-random.onnx)`);
  }
}

/** The manifest's parameter of type model, if it has one: its key and definition. */
function modelParam(manifest: AgentManifest): [string, z.infer<typeof ModelParam>] | undefined {
  for (const [key, def] of Object.entries(manifest.params)) if (typeof def !== 'string' && def.type === 'model') return [key, def];
  return undefined;
}

/** The network an outside agent reads with these parameters (its model parameter's value, or default), if any. */
export function outsideAgentModel(agent: InstalledAgent, params: Readonly<Record<string, string>>): string | undefined {
  const model = modelParam(agent.manifest);
  return model ? (params[model[0]] ?? model[1].default) : undefined;
}

type Typed = Exclude<AgentManifest['params'][string], string | z.infer<typeof ModelParam>>;

function describeTyped(def: Typed): string {
  return def.type === 'choice' ? `one of ${def.values!.join(' | ')}` : `${def.type === 'integer' ? 'an integer' : 'a number'} from ${def.min} to ${def.max}`;
}

/**
 * An outside agent's typed parameters as the lab's parameter tables have options (agents/params.ts):
 * what a tune searches (lab/tune/space.ts). A parameter with a description alone is not in it.
 */
export function agentParamTable(manifest: AgentManifest): { key: string; field: string; name: string; type: 'number' | 'integer' | 'choice'; min?: number; max?: number; values?: readonly string[]; default: number | string; meaning: string }[] {
  return Object.entries(manifest.params).flatMap(([key, def]) =>
    typeof def === 'string' || def.type === 'model' ? [] : [{ key, field: key, name: key, type: def.type, min: def.min, max: def.max, values: def.values, default: def.default, meaning: def.description }],
  );
}

/**
 * What a sweep records of an outside agent: its manifest, and the sha256 over its folder's files
 * (their paths and bytes, in path order; hidden files and __pycache__ left out), so that a result
 * names the code that played it.
 */
export interface OutsideAgentRecord {
  manifest: AgentManifest;
  sha256: string;
  files: number;
}

export function agentFingerprint(agent: InstalledAgent): OutsideAgentRecord {
  const hash = createHash('sha256');
  let files = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry.startsWith('.') || entry === '__pycache__' || entry === 'node_modules') continue;
      const path = join(dir, entry);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) {
        hash.update(relative(agent.dir, path)).update('\0').update(readFileSync(path)).update('\0');
        files++;
      }
    }
  };
  walk(agent.dir);
  return { manifest: agent.manifest, sha256: hash.digest('hex'), files };
}
