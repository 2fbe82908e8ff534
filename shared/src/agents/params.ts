/**
 * The MCTS agents' parameters, declared once: each option's spec key, type, range, default and
 * one-line meaning, and the named agents as overrides of those defaults. The spec parser, the
 * canonical forms, `wonderlab play --help`, the API's OpenAPI schema and the dashboard all read
 * this table; nothing else lists the options.
 */

export type ParamType = 'integer' | 'number' | 'choice' | 'perAge' | 'model';

export interface ParamDef<V = unknown> {
  /** The name in keyed specs: `mcts(it=500)`. */
  readonly key: string;
  /** A short name for axes and headings: `exploration constant C`. */
  readonly name: string;
  readonly type: ParamType;
  /** Range of an integer, number or per-Age number (inclusive). */
  readonly min?: number;
  readonly max?: number;
  /** The values of a choice. */
  readonly values?: readonly string[];
  /** `mcts`'s value; the other named agents override some (MCTS_AGENTS). */
  readonly default: V;
  readonly meaning: string;
}

type PerAge = readonly [number, number, number];

const integer = (key: string, name: string, min: number, max: number, def: number, meaning: string): ParamDef<number> => ({ key, name, type: 'integer', min, max, default: def, meaning });
const number = (key: string, name: string, min: number, max: number, def: number, meaning: string): ParamDef<number> => ({ key, name, type: 'number', min, max, default: def, meaning });
const choice = <const T extends readonly string[]>(key: string, name: string, values: T, def: T[number], meaning: string): ParamDef<T[number]> => ({ key, name, type: 'choice', values, default: def, meaning });
const perAge = (key: string, name: string, min: number, max: number, def: PerAge, meaning: string): ParamDef<PerAge> => ({ key, name, type: 'perAge', min, max, default: def, meaning });
const model = (key: string, name: string, meaning: string): ParamDef<string> => ({ key, name, type: 'model', default: NO_MODEL, meaning });

/** The definitions' constructors, for other agents' tables (minimax/params.ts). */
export { integer as integerParam, number as numberParam, choice as choiceParam };

/** A model option's value when the search reads no network. */
export const NO_MODEL = 'none';

/**
 * Every option, in the order canonical specs list them. Each field of MctsParams is named as its
 * spec key, so that an option has one name in specs, code and stored results alike.
 */
export const MCTS_PARAMETERS = {
  it: integer('it', 'iterations', 1, 10_000_000, 100, 'iterations per decision in Age I (Ages II and III multiply it by scale)'),
  time: number('time', 'time limit (s)', 0, 86_400, 10, 'cap on the seconds one decision may take (0: none); a decision it cuts short is counted'),
  depth: integer('depth', 'search depth (turns)', 1, 100, 100, 'turns simulated from the decision (tree and playout); a simulation cut off there scores the seats\' VP so far, as if the game ended there'),
  c: number('c', 'exploration constant C', 0, 100, 0.4, 'UCB exploration constant (C_MCTS, K_UCT)'),
  reward: choice('reward', 'reward', ['win', 'rank', 'margin', 'share', 'vp'], 'win', 'win: 1 for strictly the most VP, else 0; rank: (n − rank)/(n − 1); margin: 0.5 + (own VP − best other VP)/40 clamped to [0, 1]; share: own VP / all seats\' VP; vp: own VP itself, unscaled (C is then in VP: C = 0.4 leaves the search nearly greedy)'),
  tree: choice('tree', 'tree shape', ['joint', 'seats'], 'joint', 'joint: one tree level per decision of the agent, the other seats\' moves drawn by their playout policy inside the step (thesis); seats: one level per acting seat, each choosing by its own reward (2014 paper)'),
  arms: choice('arms', 'tree arms', ['all', 'grouped'], 'grouped', 'moves in the tree: all, a child per card and action; grouped, one discard child and one stage child per decision (the card they use: see bury), builds per card'),
  trades: choice('trades', 'payments in the tree', ['cheapest', 'all'], 'cheapest', 'payments in the tree: the cheapest per card and action, or every undominated split between the neighbours'),
  pw: number('pw', 'progressive widening P', 0, 1, 0, 'progressive widening exponent P (0: off): at a node\'s m-th visit only the first ⌊Q·m^P⌋ moves in the 2014 paper\'s order'),
  pwq: number('pwq', 'progressive widening Q', 0.01, 100, 1, 'progressive widening factor Q'),
  kscore: number('kscore', 'real-score bias K_score', 0, 1000, 0, 'real-score bias K_score: adds K_score / ln(1 + n) · (the mean VP of the mover at the end of the simulations through the child / 100) to UCB'),
  playout: choice('playout', 'playout policy', ['random', 'nodiscard', 'rulebased', 'mast'], 'random', 'playout policy: random, uniform; nodiscard, uniform among non-discards when there are any; rulebased, the thesis\'s rule-based player; mast, by the moves\' running mean reward (Move-Average Sampling: the best mean with probability 0.9, else uniform)'),
  parms: choice('parms', 'playout arms', ['all', 'grouped'], 'grouped', 'moves a random, nodiscard or mast playout draws from: all, every card and action; grouped, each build plus one stage and one discard (the card they use: see bury)'),
  opp: choice('opp', 'simulated opponents', ['same', 'random', 'nodiscard', 'rulebased', 'mast'], 'rulebased', 'the other seats\' policy in simulations when it differs from playout (same: it does not)'),
  pe: number('pe', 'rule-based playout ε', 0, 1, 0, 'the probability that a simulated move of the rulebased policy (playout or opp) is drawn as nodiscard draws it instead (ε-greedy heavy playouts; 0: never)'),
  det: choice('det', 'determinization', ['is', 'pimc'], 'is', 'determinization: is, one tree and a fresh world every iteration (single-observer ISMCTS); pimc, `worlds` worlds sampled once per decision, a tree each, their root statistics summed (see final)'),
  worlds: integer('worlds', 'PIMC worlds', 1, 1000, 8, 'worlds (trees) of det=pimc; the iterations are shared between them'),
  reuse: choice('reuse', 'tree reuse', ['off', 'on'], 'off', 'on: the subtree under the agent\'s last move is kept as the next decision\'s root (needs tree=joint and det=is)'),
  tl: perAge('tl', 'trade limit per Age', 0, 100_000, [0, 0, 0], 'per Age, the cap on payment-search nodes per card and action in playouts (0: none); a card not paid for within it counts as unaffordable'),
  scale: perAge('scale', 'iteration scale per Age', 0.01, 100, [1, 1.5, 2], 'per Age, the factor on it (the papers\' ×1, ×1.5, ×2)'),
  final: choice('final', 'final move', ['visits', 'mean'], 'visits', 'the move played: the root child with the most visits, or with the best mean reward'),
  stop: choice('stop', 'search stop', ['budget', 'settled'], 'budget', 'when a decision\'s search ends: budget, after every iteration of it (or at time); settled, as soon as the root move with the most visits keeps the most whatever the iterations left do, so the root move played (with grouped arms, the arm) is the one the whole budget would choose from the same simulations; needs final=visits and one tree (det=is, or pimc with worlds=1)'),
  model: model('model', 'network', 'a trained network (an ONNX file under MODELS_DIR with logits and values: python -m wonderlab.train) that eval and prior read; none: no network'),
  eval: choice('eval', 'leaf evaluation', ['playout', 'net', 'mix'], 'playout', 'how a simulation is scored once it leaves the tree: playout, played out to the end (or depth) by the playout policies; net, the network\'s predicted final VP of every seat at the new node, no playout; mix, both, weighed by lambda (scores and rewards; 0.5: their mean)'),
  lambda: number('lambda', 'mix weight λ', 0, 1, 0.5, 'eval=mix\'s weight on the network (AlphaGo\'s mixing parameter λ): a leaf\'s scores and rewards are (1 − λ) · the playout\'s + λ · the network\'s; 0.5 is their mean (0 and 1 still pay for both evaluations: eval=playout and eval=net do not)'),
  prior: choice('prior', 'tree policy', ['ucb', 'net', 'root'], 'ucb', 'how the tree chooses among a decision\'s moves: ucb, UCB1 over the moves available, untried moves first; net, PUCT with the network\'s move probabilities as priors (mean reward + c · prior · √(node visits) / (1 + child visits); unvisited moves valued at the visited ones\' mean); root, PUCT at the decision\'s root only, from the seat\'s own observation (one network call per decision), UCB1 below'),
  ptemp: number('ptemp', 'prior temperature', 0.05, 20, 1, 'prior=net and root\'s temperature T on the network\'s move probabilities: priors are softmax(logit / T) over a node\'s moves (1: as trained; below 1 sharper, above 1 flatter)'),
  noise: number('noise', 'root noise ε', 0, 1, 0, 'the share of Dirichlet noise in the root\'s priors (AlphaZero\'s exploration in self-play): priors become (1 − ε) · p + ε · η, η ~ Dir(alpha) over the root\'s moves, drawn once a decision from the agent\'s RNG; 0: none; needs prior=net or root'),
  alpha: number('alpha', 'root noise α', 0.01, 100, 1, 'the Dirichlet concentration of noise\'s η: below 1 it puts most of the weight on few moves (AlphaZero: 0.3 in chess, 0.03 in Go), 1 draws uniformly over the simplex'),
  batch: integer('batch', 'network batch', 1, 64, 1, 'leaves the network evaluates in one call: 1, each as the search reaches it; K > 1, K descents run first, each leaving a virtual visit (no reward) on its path, then one call scores their K leaves and (tree=joint) gives each new node its priors from the leaf it was found at (a call\'s cost is mostly fixed: 8 leaves cost about twice 1); needs eval=net or eval=mix, and no MAST')
} as const;

export type MctsParams = { -readonly [K in keyof typeof MCTS_PARAMETERS]: (typeof MCTS_PARAMETERS)[K]['default'] };
export type MctsField = keyof MctsParams;

/**
 * Options removed with issue 41, each with the value the agent now always plays (their default):
 * each served one-off readings of the thesis fit (or none at all), and a spec that names one is
 * refused with this reason rather than as a mere typo. The readings' stored results were played
 * at the commits they record and are reproducible there; a stored spec that names one at this
 * value (reproduction/fit spells its base out) plays as the same spec without it.
 */
export const REMOVED_PARAMETERS: Readonly<Record<string, string>> = {
  root: 'ucb',
  cs: 'const',
  topp: 'same',
  steps: 'redrawn',
  seen: 'remembered',
  cutoff: 'standing',
  rs: 'final',
  tord: 'cheapest',
  mast: 'eps',
  mastp: '0.1',
  vote: 'visits',
};

/** The parameters' definitions in canonical order, with their field names. */
export const PARAMETER_LIST: readonly (ParamDef & { field: MctsField })[] = (Object.keys(MCTS_PARAMETERS) as MctsField[]).map((field) => ({ ...MCTS_PARAMETERS[field], field }));

/** The rule that picks the card of a grouped discard or stage arm (arms / parms = grouped). */
export const BURY_RULE =
  'the card whose build the thesis\'s rule-based player ranks lowest for the mover (cards it cannot build first, then rule 7, 6, 5 with the fewest VP, 3, 2, 1), ties drawn with the agent\'s RNG';

export interface NamedMcts {
  /** One line for help texts. */
  readonly summary: string;
  /** Where the figures and runs behind its values are told (a results page, not code). */
  readonly docs: string;
  /** Values that differ from MCTS_PARAMETERS' defaults. */
  readonly params: Partial<MctsParams>;
}

/**
 * The named MCTS agents. Each accepts the thesis's positional syntax (`kind:it,time,depth`) and
 * every key of the table (`kind(key=value,…)`).
 */
export const MCTS_AGENTS = {
  mcts: {
    summary: 'our reading of the thesis\'s agent (Minenko 2025; its code is not public)',
    docs: 'docs/agents.md#mcts',
    params: { det: 'pimc', worlds: 1 },
  },
  'mcts-robilliard': {
    summary: 'our reading of the 2014 paper\'s agent (Robilliard, Fonlupt & Teytaud), enhancements off as in its baseline',
    docs: 'docs/agents.md#mcts-robilliard',
    params: { it: 1000, time: 0, c: 0.3, tree: 'seats', trades: 'all', arms: 'all', playout: 'nodiscard', parms: 'all', opp: 'same', tl: [8, 24, 32] },
  },
  'mcts-strong': {
    summary: 'the configuration our screens chose (no paper\'s agent)',
    docs: 'docs/agents.md#mcts-strong',
    params: { reward: 'margin', playout: 'rulebased', opp: 'same', reuse: 'on', pe: 0.5 },
  },
} as const satisfies Record<string, NamedMcts>;

export type MctsKind = keyof typeof MCTS_AGENTS;
export const MCTS_KINDS = Object.keys(MCTS_AGENTS) as MctsKind[];

/** The full parameter set of a named agent. */
export function mctsDefaults(kind: MctsKind): MctsParams {
  const params = {} as Record<MctsField, unknown>;
  for (const def of PARAMETER_LIST) params[def.field] = def.default;
  return { ...(params as MctsParams), ...(MCTS_AGENTS[kind].params as Partial<MctsParams>) };
}

/** A parameter's value as a spec writes it: per-Age triples as `a/b/c`, or one number when equal. */
export function formatParam(v: unknown): string {
  return Array.isArray(v) ? (v.every((x) => x === v[0]) ? String(v[0]) : v.join('/')) : String(v);
}

/** The range of a parameter in words: `an integer from 1 to 100`, `one of win | rank`. */
export function describeRange(def: ParamDef): string {
  switch (def.type) {
    case 'integer':
      return `an integer from ${def.min} to ${def.max}`;
    case 'number':
      return `a number from ${def.min} to ${def.max}`;
    case 'choice':
      return `one of ${def.values!.join(' | ')}`;
    case 'perAge':
      return `a number from ${def.min} to ${def.max}, or three separated by '/' (Ages I/II/III)`;
    case 'model':
      return `none, or a model file under MODELS_DIR (letters, digits, . _ - and /, ending in .onnx)`;
  }
}

/** A parameter's definition by its spec key (`it`, `c`), or undefined. */
export function parameterByKey(key: string): (ParamDef & { field: MctsField }) | undefined {
  return PARAMETER_LIST.find((def) => def.key === key);
}

/** An option's definition as data (its meaning apart), for the API's tables of any agent's options. */
export function parameterRow(def: ParamDef & { field: string }) {
  return {
    key: def.key,
    name: def.name,
    field: def.field,
    type: def.type,
    ...(def.min !== undefined ? { min: def.min, max: def.max } : {}),
    ...(def.values ? { values: [...def.values] } : {}),
    range: describeRange(def),
  };
}

/** The table as data, for the API (OpenAPI, the dashboard) and tests. */
export function parameterTable() {
  return PARAMETER_LIST.map((def) => ({
    ...parameterRow(def),
    defaults: Object.fromEntries(MCTS_KINDS.map((kind) => [kind, formatParam(mctsDefaults(kind)[def.field])])) as Record<MctsKind, string>,
    meaning: def.meaning,
  }));
}
