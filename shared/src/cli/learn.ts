/**
 * `wonderlab learn`: generations of expert iteration on a running lab (docs/learning.md). Each
 * generation g:
 *   1. self-play: the current player (the base agent, alone or guided by --start-model, then
 *      generation g − 1's network guiding it) in every seat, `training: true`, on seeds of its own;
 *   2. its training rows exported (remote export --format training);
 *   3. a network trained on the rows of the last `window` generations (python -m wonderlab.train),
 *      written to MODELS_DIR/<name>/gen-<g>.onnx with its manifest (MODELS_DIR's first folder),
 *      and kept with the run as <dir>/gen-<g>.onnx beside it;
 *   4. evaluation: the new player against the previous one and against the reference agent, each
 *      head to head with seats swapped and an SPRT stop, --third in every other seat;
 *   5. the lab's ladder read for the new player.
 * Everything a step made is written to <dir>/learn.json as soon as it is made, so a stopped run
 * resumes where it stopped: a submitted sweep is waited for (never submitted twice), exported rows
 * and trained models are kept.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ModelError, ONNX_MAX_BYTES, canonicalSpec, modelFile, modelsDirs, parseAgentSpec } from '../agents/index.js';
import { HELP_OPTION, UsageError, intOption, parseCommandLine, valueOptions } from './options.js';
import { RemoteError, call, exportTraining, getJson, labUrl, wait, type Lab } from './remote.js';

export const LEARN_USAGE = `usage: wonderlab learn --name NAME [options] [--url URL] [--token T]
  Generations of self-play → training rows → network → evaluation on a running lab; resumable
  (state in <dir>/learn.json). docs/learning.md explains each step.
options:
  --name NAME            the run: models go to MODELS_DIR/NAME/gen-<g>.onnx (letters, digits, - _;
                         not the name of a published run, learning/NAME)
  --dir DIR              where the run keeps its state, rows and networks (default: runs/NAME)
  --generations N        how many generations in all (default 3; run again with more to go on)
  --base SPEC            the searching agent (default mcts-strong): generation 0 is the base as it
                         is; generation g >= 1 is the base guided by generation g's network.
                         Generation g's self-play is played by generation g - 1
  --start-model MODEL    generation 0 is the base guided (--guide) by this network, a model name
                         such as strong/gen-3.onnx: a run that goes on from another run's network
                         (default: the base alone)
  --guide OPTIONS        how the generations read their network (default eval=mix,prior=net)
  --explore OPTIONS      options of the self-play player only, when it reads a network (e.g.
                         noise=0.25,alpha=1: Dirichlet noise at the root); never in evaluations
  --self-play N          self-play games per generation (default 1000)
  --eval-games N         most games of each evaluation, seats swapped (default 1000; SPRT stops earlier)
  --elo0 E --elo1 E      the evaluations' SPRT hypotheses (default 0 and 30)
  --reference SPEC       the fixed opponent of every evaluation (default: --base)
  --third SPEC           the third seat of evaluations, and every seat past it (default rulebased)
  --players N            players at every table, 3 to 7 (default 3): a network serves one count
  --window N             generations of rows a network trains on (default 2)
  --epochs N --hidden W  the trainer's (default 20 and 256,256)
  --train OPTIONS        more options of python -m wonderlab.train as key=value,… (e.g.
                         policy-temperature=0.5 for --policy-temperature 0.5)
  --first-seed S         seeds: generation g self-plays from S + 100000·g, evaluates from
                         S + 100000·g + 50000 (default 5000000)
  --models-dir DIRS      the lab's MODELS_DIR, on this machine (default: MODELS_DIR, else
                         models:learning:reproduction); networks go to its first folder
  --python PATH          the Python with wonderlab and torch (default .venv/bin/python, else python3)
  --priority P           the sweeps' queue priority (default 1)
  --until-plateau        stop before --generations once two generations in a row were not shown
                         stronger than the one before (their evaluation against it ended H0)`;

/** The code version the lab recorded for a sweep (its provenance). */
export type SweepCode = { version: string; commit?: string; dirty?: boolean } | null;

export interface Evaluation {
  opponent: string;
  sweep: string;
  code?: SweepCode;
  games?: number;
  /** The SPRT's decision: H1 (stronger by elo1), H0, or max (undecided at the cap). */
  decision?: string;
  /** The player against the opponent at the same table: (games it scored more VP + ties / 2) / games, Wilson 95 %. */
  score?: number;
  low?: number;
  high?: number;
  /** Paired difference of the two seats' win rates (player minus opponent, seats swapped) and its 95 % half-width. */
  difference?: number;
  halfWidth?: number;
}

/** A self-play sweep: its id, then once finished its games, CPU time and code version. */
export interface SelfPlay {
  sweep: string;
  games?: number;
  cpuSeconds?: number | null;
  code?: SweepCode;
}

export interface Generation {
  gen: number;
  /** The agent this generation plays (generation 0: the base). */
  player: string;
  selfPlay?: SelfPlay;
  /**
   * The same games played again for their rows, on a lab that no longer has the finished
   * self-play its network was trained on: selfPlay stays the record (that network's manifest
   * names its sweep). A generation without a network yet has its self-play replaced instead.
   */
  replay?: SelfPlay;
  /** Paths are relative to the run's folder (<dir>), so that a run moves with it. */
  rows?: { dir: string; files: string[] };
  model?: { name: string; sha256: string; manifest: string; trainingSeconds?: number };
  evaluations: Evaluation[];
  /** The lab's ladder when the generation was done: the player's rating, its games, and the ladder's games then. */
  rating?: { elo: number; low: number; high: number; games: number; ladderGames: number; ratedAt: string } | null;
}

export interface LearnState {
  name: string;
  config: Record<string, unknown>;
  generations: Generation[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** `spec` with extra keyed options: `mcts-strong(it=100)` + `model=a.onnx,eval=net`. */
export function withOptions(spec: string, options: string): string {
  const canonical = canonicalSpec(parseAgentSpec(spec));
  const open = canonical.indexOf('(');
  const text = open < 0 ? `${canonical}(${options})` : `${canonical.slice(0, -1)},${options})`;
  return canonicalSpec(parseAgentSpec(text));
}

interface Options {
  lab: Lab;
  name: string;
  dir: string;
  generations: number;
  base: string;
  guide: string;
  /** --explore: options added to the self-play player when it reads a network ('' none). */
  explore: string;
  /** --train: the trainer's further options, as written (key=value,…; '' none). */
  train: string;
  /** The network guiding generation 0 (a model under MODELS_DIR), if the run starts from one. */
  startModel?: string;
  selfPlay: number;
  evalGames: number;
  elo0: number;
  elo1: number;
  reference: string;
  third: string;
  /** --players: the tables' player count (a network reads one count's observations). */
  players: number;
  window: number;
  epochs: number;
  hidden: string;
  firstSeed: number;
  /** Where the networks are written: the first folder of the lab's MODELS_DIR. */
  modelsDir: string;
  python: string;
  priority: number;
  /** Stop once PLATEAU generations in a row were not shown stronger than the one before (SPRT H0). */
  untilPlateau: boolean;
}

/** Generations in a row whose evaluation against the previous one ended H0: the run has plateaued. */
const PLATEAU = 2;

/** The last generations' evaluations against their predecessors, if PLATEAU of them in a row ended H0. */
function plateaued(state: LearnState, upTo: number): Generation[] | undefined {
  const last = state.generations.filter((x) => x.gen <= upTo).sort((a, b) => a.gen - b.gen).slice(-PLATEAU);
  const h0 = (x: Generation) => x.evaluations[0]?.decision === 'H0';
  return last.length === PLATEAU && last.every(h0) ? last : undefined;
}

/** The trainer's options --train may set (python -m wonderlab.train --help); the run sets the rest. */
const TRAINER_KEYS = ['batch-size', 'learning-rate', 'weight-decay', 'value-weight', 'validation', 'policy-temperature'];

/**
 * --train's key=value,… as the trainer's arguments (`policy-temperature=0.5` → `--policy-temperature
 * 0.5`): numbers only, keys from TRAINER_KEYS in full. A list rather than a refusal of the run's own
 * (--out, --epochs, --hidden, --seed): argparse takes any prefix of an option, so `ep=5` would
 * otherwise set the epochs behind the run's back.
 */
export function trainerArgs(options: string): string[] {
  const args: string[] = [];
  for (const part of options.split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*([a-z][a-z-]*)\s*=\s*([^\s,]+)\s*$/.exec(part);
    if (!m) throw new UsageError(`--train: expected key=value,… (e.g. policy-temperature=0.5), got '${part}'`);
    const [, key, value] = m;
    if (!TRAINER_KEYS.includes(key)) throw new UsageError(`--train: ${key} is not an option --train passes (known: ${TRAINER_KEYS.join(', ')}; the rows, --out, --epochs, --hidden and the seed are the run's)`);
    if (!Number.isFinite(Number(value))) throw new UsageError(`--train: ${key}: expected a number, got '${value}'`);
    args.push(`--${key}`, value);
  }
  return args;
}

function parseOptions(args: string[]): Options | undefined {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      ...valueOptions('url', 'token', 'name', 'dir', 'generations', 'base', 'guide', 'explore', 'train', 'start-model', 'self-play', 'eval-games', 'elo0', 'elo1', 'reference', 'third', 'players', 'window', 'epochs', 'hidden', 'first-seed', 'models-dir', 'python', 'priority'),
      'until-plateau': { type: 'boolean' },
      ...HELP_OPTION,
    },
  });
  if (values.help) return undefined;
  if (positionals.length > 0) throw new UsageError(`learn takes no arguments, got '${positionals[0]}'`);
  const name = values.name;
  if (!name || !NAME.test(name)) throw new UsageError('--name: expected a run name of letters, digits, - and _ (its models go to MODELS_DIR/NAME/)');
  const number = (key: 'elo0' | 'elo1', fallback: number) => {
    const v = values[key];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new UsageError(`--${key}: expected a number, got '${v}'`);
    return n;
  };
  const base = values.base ?? 'mcts-strong';
  const guide = values.guide ?? 'eval=mix,prior=net';
  // The specs are checked now, with a stand-in model: a typo is a usage error, not a failed sweep.
  for (const [flag, spec] of [['--base', base], ['--reference', values.reference ?? base], ['--third', values.third ?? 'rulebased']] as const) {
    try {
      parseAgentSpec(spec);
    } catch (err) {
      throw new UsageError(`${flag}: ${(err as Error).message}`);
    }
  }
  try {
    withOptions(base, `model=${name}/gen-1.onnx,${guide}`);
  } catch (err) {
    throw new UsageError(`--guide: ${(err as Error).message}`);
  }
  const explore = values.explore ?? '';
  if (explore !== '') {
    try {
      withOptions(base, `model=${name}/gen-1.onnx,${guide},${explore}`);
    } catch (err) {
      throw new UsageError(`--explore: ${(err as Error).message}`);
    }
  }
  const train = values.train ?? '';
  trainerArgs(train);
  const dirs = modelsDirs(values['models-dir'] ?? process.env.MODELS_DIR);
  const modelsDir = dirs[0];
  const runDir = resolve(values.dir ?? join('runs', name));
  // A new run's networks would hide those of the same name in MODELS_DIR's later folders (the
  // published runs' in learning/): the documented `strong/gen-3.onnx` would play another network.
  const taken = dirs.slice(1).find((dir) => existsSync(join(dir, name)));
  if (taken && !existsSync(join(runDir, 'learn.json'))) throw new UsageError(`--name: ${join(taken, name)} already holds networks named ${name}/…; choose another name`);
  const startModel = values['start-model'];
  if (startModel !== undefined) {
    try {
      withOptions(base, `model=${startModel},${guide}`);
    } catch (err) {
      throw new UsageError(`--start-model: ${(err as Error).message}`);
    }
    // The lab's game threads read it from the same MODELS_DIR: missing here, its sweep would fail.
    try {
      modelFile(startModel, ONNX_MAX_BYTES, dirs);
    } catch (err) {
      if (err instanceof ModelError) throw new UsageError(`--start-model: no file ${startModel} under the models directories ${dirs.join(', ')} (--models-dir)`);
      throw err;
    }
  }
  const elo0 = number('elo0', 0);
  const elo1 = number('elo1', 30);
  if (!(elo1 > elo0)) throw new UsageError(`--elo1 must be above --elo0 (${elo0}), got ${elo1}`);
  const python = values.python ?? (existsSync('.venv/bin/python') ? resolve('.venv/bin/python') : 'python3');
  return {
    lab: { url: labUrl(values.url), token: values.token ?? process.env.WONDERLAB_TOKEN },
    name,
    dir: runDir,
    generations: intOption('generations', values.generations, 1, 1000) ?? 3,
    base,
    guide,
    explore,
    train,
    ...(startModel !== undefined ? { startModel } : {}),
    selfPlay: intOption('self-play', values['self-play'], 1, 10_000_000) ?? 1000,
    evalGames: intOption('eval-games', values['eval-games'], 2, 10_000_000) ?? 1000,
    elo0,
    elo1,
    reference: values.reference ?? base,
    third: values.third ?? 'rulebased',
    players: intOption('players', values.players, 3, 7) ?? 3,
    window: intOption('window', values.window, 1, 1000) ?? 2,
    epochs: intOption('epochs', values.epochs, 1, 100_000) ?? 20,
    hidden: values.hidden ?? '256,256',
    firstSeed: intOption('first-seed', values['first-seed'], 0, 2 ** 32 - 1 - 100_000 * 1001) ?? 5_000_000,
    modelsDir,
    python,
    priority: intOption('priority', values.priority, 1, 1000) ?? 1,
    untilPlateau: values['until-plateau'] === true,
  };
}

function load(o: Options): LearnState {
  const file = join(o.dir, 'learn.json');
  if (!existsSync(file)) return { name: o.name, config: {}, generations: [] };
  const state = JSON.parse(readFileSync(file, 'utf8')) as LearnState;
  if (state.name !== o.name) throw new UsageError(`${file} belongs to run '${state.name}', not '${o.name}'`);
  return state;
}

function save(o: Options, state: LearnState): void {
  mkdirSync(o.dir, { recursive: true });
  const file = join(o.dir, 'learn.json');
  // Written whole to a new file, then renamed: a stop mid-write leaves the last good state.
  writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
}

/**
 * The agent generation g plays: for g = 0 the base agent (guided by the start model, if any), else
 * the base guided by generation g's network.
 */
function playerOf(o: Options, g: number): string {
  if (g > 0) return withOptions(o.base, `model=${o.name}/gen-${g}.onnx,${o.guide}`);
  return o.startModel !== undefined ? withOptions(o.base, `model=${o.startModel},${o.guide}`) : canonicalSpec(parseAgentSpec(o.base));
}

async function submit(o: Options, spec: Record<string, unknown>): Promise<string> {
  const created = (await (await call(o.lab, '/api/sweeps', { method: 'POST', json: { priority: o.priority, ...spec }, auth: true })).json()) as { id: string };
  return created.id;
}

interface DetailView {
  status: string;
  counts: { done: number };
  provenance?: { cpuSeconds: number | null; code: SweepCode };
  cells: { stopped?: { decision?: string; games?: number } | null; pairedDifference?: { mean: number; halfWidth: number; groups: number } }[];
  headToHead?: { configs: string[]; rows: ({ score: number; interval: { low: number; high: number } } | null)[][] };
}

async function finished(o: Options, id: string, err: (s: string) => void): Promise<DetailView> {
  const end = await wait(o.lab, id, 30 * 24 * 3600, 5, err, false);
  if (end.status !== 'done') throw new UsageError(`sweep ${id} ended ${end.status}: resume or replace it, then run learn again`);
  return getJson<DetailView>(o.lab, `/api/sweeps/${encodeURIComponent(id)}`);
}

/**
 * A child process's exit (its output passed through). Asynchronous on purpose: a training takes
 * minutes, and an event loop blocked that long would reuse HTTP connections the lab has closed.
 */
function run(command: string, args: string[]): Promise<number | string> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (e) => done(e.message));
    child.on('close', (code, signal) => done(code ?? signal ?? 'unknown'));
  });
}

/**
 * Where the run keeps a generation's network: beside its manifest, gen-<g>.onnx (runs made before
 * the published networks became model names under learning/ kept gen-<g>/model.onnx, and their
 * learn.json says gen-<g>/model.json: they resume as they are).
 */
function keptModelFile(o: Options, model: NonNullable<Generation['model']>): string {
  return resolve(o.dir, model.manifest.replace(/\.json$/, '.onnx'));
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Whether the lab has the sweep: false only when it answers that it has no such sweep (a lab it
 * was never submitted to); any other answer — another 404 (a wrong URL), a lab that cannot be
 * reached — is an error, and the run stops with its state as it was.
 */
async function labHas(o: Options, id: string): Promise<boolean> {
  try {
    await call(o.lab, `/api/sweeps/${encodeURIComponent(id)}?cellLimit=1`);
    return true;
  } catch (e) {
    if (e instanceof RemoteError && e.status === 404 && e.message === `no sweep '${id}'`) return false;
    throw e;
  }
}

/**
 * A run resumed on another lab (another machine, a Redis that lost its data): an evaluation not
 * yet decided whose sweep that lab does not have is dropped, to be submitted again — the same spec
 * and seeds, so the same games. In memory only: the state is saved with the new sweep's id once it
 * is submitted, so a run stopped before then still names the old one. (Self-plays: ensureRows.)
 */
async function forgetLostEvaluations(o: Options, gen: Generation, out: (s: string) => void): Promise<void> {
  for (const ev of [...gen.evaluations]) {
    if (ev.decision === undefined && !(await labHas(o, ev.sweep))) {
      out(`generation ${gen.gen}: the lab does not have evaluation ${ev.sweep} (another lab?): it is played again`);
      gen.evaluations.splice(gen.evaluations.indexOf(ev), 1);
    }
  }
}

/** The player of generation g's self-play: generation g − 1's, with --explore where it reads a network. */
function selfPlayerOf(o: Options, g: number): string {
  const player = playerOf(o, g - 1);
  const guided = g > 1 || o.startModel !== undefined;
  return guided && o.explore !== '' ? withOptions(player, o.explore) : player;
}

/** Generation g's self-play: the previous generation's player (with --explore) in every seat, on g's seeds. */
function selfPlaySpec(o: Options, g: number): Record<string, unknown> {
  const previous = selfPlayerOf(o, g);
  return { name: `${o.name}/gen-${g}/self-play`, players: o.players, seats: Array<string>(o.players).fill(previous), deals: { count: o.selfPlay, firstSeed: o.firstSeed + 100_000 * g }, training: true };
}

/**
 * Generation x's self-play played and its training rows on disk (steps 1 and 2). Rows recorded but
 * gone (rows stay out of git: a run resumed on another clone) are exported again; a self-play the
 * lab does not have (another lab) is submitted again with the same spec and seeds — the same games.
 */
async function ensureRows(o: Options, state: LearnState, x: Generation, out: (s: string) => void, err: (s: string) => void): Promise<void> {
  if (x.rows && existsSync(resolve(o.dir, x.rows.dir))) return;
  // A finished self-play that a network was trained on stays the generation's record (that
  // network's manifest names it); its rows then come from a replay of the same games.
  const recorded = x.selfPlay?.games !== undefined && x.model !== undefined;
  const kept = (recorded ? [x.selfPlay, x.replay] : [x.selfPlay]).filter((sp): sp is SelfPlay => sp !== undefined);
  let source: SelfPlay | undefined;
  for (const sp of kept) {
    if (await labHas(o, sp.sweep)) {
      source = sp;
      break;
    }
  }
  if (!source && kept.length > 0) {
    out(`generation ${x.gen}: the lab does not have self-play ${kept.map((sp) => sp.sweep).join(' or ')} (another lab?): it is played again`);
    if (recorded) x.replay = undefined;
    else x.selfPlay = undefined;
  }
  if (!source) {
    source = { sweep: await submit(o, selfPlaySpec(o, x.gen)) };
    if (recorded) x.replay = source;
    else x.selfPlay = source;
    x.rows = undefined;
    save(o, state);
    out(`generation ${x.gen}: self-play of ${selfPlayerOf(o, x.gen)} submitted (${source.sweep})${recorded ? ', the same games again for their rows' : ''}`);
  }
  if (source.games === undefined) {
    const detail = await finished(o, source.sweep, err);
    Object.assign(source, { games: detail.counts.done, cpuSeconds: detail.provenance?.cpuSeconds ?? null, code: detail.provenance?.code ?? null });
    save(o, state);
  }
  const dir = join(`gen-${x.gen}`, 'rows');
  await exportTraining(o.lab, source.sweep, resolve(o.dir, dir), undefined, '1000', err);
  x.rows = { dir, files: readdirSync(resolve(o.dir, dir)).filter((f) => f.endsWith('.npz')).sort() };
  save(o, state);
}

/** Runs (or resumes) the run's generations; returns its state. */
export async function runLearn(o: Options, out: (s: string) => void, err: (s: string) => void): Promise<LearnState> {
  const state = load(o);
  state.config = { base: o.base, guide: o.guide, ...(o.explore !== '' ? { explore: o.explore } : {}), ...(o.train !== '' ? { train: o.train } : {}), ...(o.startModel !== undefined ? { startModel: o.startModel } : {}), selfPlay: o.selfPlay, evalGames: o.evalGames, elo0: o.elo0, elo1: o.elo1, reference: o.reference, third: o.third, ...(o.players !== 3 ? { players: o.players } : {}), window: o.window, epochs: o.epochs, hidden: o.hidden, firstSeed: o.firstSeed };
  // Finished sweeps recorded before their code versions were: the lab still has them.
  for (const step of state.generations.flatMap((x) => [x.selfPlay, ...x.evaluations])) {
    if (step && step.code === undefined && ('games' in step ? step.games !== undefined : false)) {
      step.code = (await getJson<DetailView>(o.lab, `/api/sweeps/${encodeURIComponent(step.sweep)}`)).provenance?.code ?? null;
      save(o, state);
    }
  }
  for (let g = 1; g <= o.generations; g++) {
    // A generation already begun is finished; the plateau is judged before a new one.
    const begun = state.generations.find((x) => x.gen === g);
    const flat = o.untilPlateau && !begun ? plateaued(state, g - 1) : undefined;
    if (flat) {
      out(`plateau: generations ${flat.map((x) => x.gen).join(' and ')} were not shown stronger than the one before each (SPRT H0); no generation ${g} (--until-plateau)`);
      break;
    }
    const gen: Generation = begun ?? { gen: g, player: playerOf(o, g), evaluations: [] };
    if (!state.generations.includes(gen)) state.generations.push(gen);
    const previous = playerOf(o, g - 1);
    const seeds = o.firstSeed + 100_000 * g;
    await forgetLostEvaluations(o, gen, out);
    // 3. A network on the last `window` generations' rows (after 1. its self-play and 2. its rows).
    const modelName = `${o.name}/gen-${g}.onnx`;
    const modelFile = join(o.modelsDir, modelName);
    // A model kept with the run but missing from MODELS_DIR (another machine) is put back, not retrained.
    const kept = gen.model && keptModelFile(o, gen.model);
    if (gen.model && kept && !existsSync(modelFile) && existsSync(kept) && sha256(kept) === gen.model.sha256) {
      mkdirSync(dirname(modelFile), { recursive: true });
      copyFileSync(kept, modelFile);
    }
    const trained = gen.model !== undefined && existsSync(modelFile) && sha256(modelFile) === gen.model.sha256;
    if (!gen.rows || !trained) await ensureRows(o, state, gen, out, err);
    if (!trained) {
      const window = state.generations.filter((x) => x.gen > g - o.window && x.gen <= g).sort((a, b) => a.gen - b.gen);
      for (const x of window) await ensureRows(o, state, x, out, err);
      const sources = window.map((x) => resolve(o.dir, x.rows!.dir));
      mkdirSync(dirname(modelFile), { recursive: true });
      out(`generation ${g}: training on ${sources.length} generation(s) of rows`);
      const status = await run(o.python, ['-m', 'wonderlab.train', ...sources, '--out', modelFile, '--epochs', String(o.epochs), '--hidden', o.hidden, '--seed', String(g), ...trainerArgs(o.train)]);
      if (status !== 0) throw new UsageError(`the trainer failed (${o.python} -m wonderlab.train, exit ${status}); its output above says why (a Python environment without torch: bash python/setup.sh --train)`);
      // The manifest is kept with the run too, where the report reads it.
      const manifestFile = `gen-${g}.json`;
      copyFileSync(modelFile.replace(/\.onnx$/, '.json'), resolve(o.dir, manifestFile));
      const manifest = JSON.parse(readFileSync(resolve(o.dir, manifestFile), 'utf8')) as { sha256: string; training_seconds?: number };
      gen.model = { name: modelName, sha256: manifest.sha256, manifest: manifestFile, trainingSeconds: manifest.training_seconds };
      save(o, state);
    }
    const model = gen.model!;
    // The network is kept with the run as well: a later session, on another machine, resumes
    // from it, and a report checks its hash.
    const keptModel = keptModelFile(o, model);
    if (!existsSync(keptModel) || sha256(keptModel) !== model.sha256) copyFileSync(modelFile, keptModel);

    // 4. The new player against the previous one and against the reference, seats swapped.
    const opponents = [...new Set([previous, canonicalSpec(parseAgentSpec(o.reference))])];
    for (const [k, opponent] of opponents.entries()) {
      let ev = gen.evaluations.find((e) => e.opponent === opponent);
      if (!ev) {
        const sweep = await submit(o, {
          name: `${o.name}/gen-${g}/vs-${k === 0 ? `gen-${g - 1}` : 'reference'}`,
          players: o.players,
          seats: [gen.player, opponent, ...Array<string>(o.players - 2).fill(o.third)],
          seating: 'swap',
          deals: { count: Math.ceil(o.evalGames / 2), firstSeed: seeds + 50_000 + 10_000 * k },
          stop: { sprt: { seats: [0, 1], elo0: o.elo0, elo1: o.elo1 } },
        });
        ev = { opponent, sweep };
        gen.evaluations.push(ev);
        save(o, state);
        out(`generation ${g}: ${gen.player} against ${opponent} submitted (${sweep})`);
      }
      if (ev.decision === undefined) {
        const detail = await finished(o, ev.sweep, err);
        const cell = detail.cells[0];
        ev.games = detail.counts.done;
        ev.code = detail.provenance?.code ?? null;
        ev.decision = cell?.stopped?.decision ?? 'max';
        const h2h = detail.headToHead;
        const i = h2h?.configs.indexOf(gen.player) ?? -1;
        const j = h2h?.configs.indexOf(opponent) ?? -1;
        const pair = i >= 0 && j >= 0 ? h2h!.rows[i][j] : null;
        if (pair) {
          ev.score = pair.score;
          ev.low = pair.interval.low;
          ev.high = pair.interval.high;
        }
        if (cell?.pairedDifference) {
          ev.difference = cell.pairedDifference.mean;
          ev.halfWidth = cell.pairedDifference.halfWidth;
        }
        save(o, state);
      }
    }
    // 5. Where the ladder puts it once it is done (its fit runs apart from the requests: wait for a
    // current one). Kept as it was then: a later run does not rewrite it.
    if (!gen.rating) {
      const ladder = await currentLadder(o);
      const rated = ladder.ratings.find((r) => r.config === gen.player);
      gen.rating = rated ? { elo: rated.elo, low: rated.low, high: rated.high, games: rated.games, ladderGames: ladder.games, ratedAt: new Date().toISOString() } : null;
      save(o, state);
    }
    out(generationLine(gen));
  }
  return state;
}

type Rating = { config: string; elo: number; low: number; high: number; games: number };

/** The lab's ladder, once its fit covers every game fed (up to about a minute), else the latest. */
async function currentLadder(o: Options): Promise<{ ratings: Rating[]; games: number }> {
  for (let attempt = 0; ; attempt++) {
    const ladder = await getJson<{ batch: { ratings: Rating[]; games: number } | null; batchFit: { current: boolean } }>(o.lab, '/api/ratings');
    if ((ladder.batch && ladder.batchFit.current) || attempt >= 30) return { ratings: ladder.batch?.ratings ?? [], games: ladder.batch?.games ?? 0 };
    await new Promise((r) => setTimeout(r, 2000));
  }
}

export function generationLine(gen: Generation): string {
  const evals = gen.evaluations
    .map((e) => `vs ${e.opponent}: ${e.decision ?? '…'}${e.score !== undefined ? ` (scores more VP in ${(100 * e.score).toFixed(1)} % [${(100 * e.low!).toFixed(1)}, ${(100 * e.high!).toFixed(1)}] of ${e.games} games)` : ''}`)
    .join('; ');
  const rating = gen.rating ? `, ladder ${gen.rating.elo.toFixed(0)} Elo [${gen.rating.low.toFixed(0)}, ${gen.rating.high.toFixed(0)}]` : '';
  return `generation ${gen.gen} (${gen.player}): ${gen.selfPlay?.games ?? 0} self-play games; ${evals}${rating}`;
}

export async function cmdLearn(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const o = parseOptions(args);
  if (!o) {
    out(LEARN_USAGE);
    return 0;
  }
  await runLearn(o, out, err);
  return 0;
}
