/**
 * The API's inputs and outputs as zod schemas: requests are validated with them and the OpenAPI
 * document is generated from them, so the two cannot drift apart.
 */
import { z } from 'zod';
import { ACTION_NAMES, PHASE_NAMES, SCORE_CATEGORIES } from '@wonderlab/shared';
import { SWEEP_STATUSES } from '@wonderlab/shared/store';

export const SweepIdParams = z.object({ id: z.string().regex(/^[a-z0-9]{6,40}$/, 'not a sweep id') });
export const GameParams = SweepIdParams.extend({
  gameId: z.string().regex(/^c\d+-(s\d+-)?d\d+-o\d+$/, 'not a game id (c<cell>-[s<set>-]d<deal>-o<order>)'),
});

/** A timeline from one seat's point of view (?seat=), or everyone's (absent). */
export const TimelineQuery = z.strictObject({ seat: z.coerce.number().int().min(0).max(6).optional() });

const offset = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0);
const pageLimit = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max, `expected at most ${max} per page (MAX_PAGE_ITEMS / MAX_PAGE_CELLS)`).default(Math.min(max, fallback));

/** A page of a sweep's games: at most `max` (MAX_PAGE_ITEMS). */
export const GamesQuery = (max: number) => z.strictObject({ offset, limit: pageLimit(max, 100) });

/** A page of the sweeps, newest first: at most `max` (MAX_PAGE_ITEMS). */
export const ListQuery = (max: number) => z.strictObject({ offset, limit: pageLimit(max, 100) });

/** A page of a sweep's cells with their aggregates: at most `max` (MAX_PAGE_CELLS), all of them by default when they fit. */
export const DetailQuery = (max: number) => z.strictObject({ cellOffset: offset, cellLimit: pageLimit(max, max) });

export const ExportQuery = z.strictObject({
  format: z.enum(['csv', 'jsonl']).default('jsonl'),
});

/** Games one training-rows request may replay: about 60 rows each at 3 players, 2.6 KB a row. */
export const TRAINING_GAMES_MAX = 2000;

export const TrainingQuery = z.strictObject({
  from: offset.describe('The first game (index in the sweep) of this archive.'),
  games: z.coerce.number().int().min(1).max(TRAINING_GAMES_MAX, `expected at most ${TRAINING_GAMES_MAX} games per archive`).default(1000).describe('How many games from `from` (an archive holds about 60 rows per 3-player game, 2.6 KB each).'),
  agent: z.string().min(1).max(500).optional().describe("Only the decisions of seats played by this agent (as the sweep writes it, or canonical); by default every seat's."),
});

export const SummaryQuery = z.strictObject({
  format: z.enum(['csv', 'json']).default('json'),
});

export const RatingsQuery = z.strictObject({
  anchor: z.string().min(1).max(500).optional().describe('A configuration (as the sweep writes it) to put at 0 Elo; by default 0 is the mean of each connected set of configurations.'),
});

export const ErrorBody = z.object({
  error: z.string().describe('What is wrong, in one sentence.'),
  field: z.string().optional().describe("The offending field's path, e.g. 'seats.1' or 'deals.count'."),
  problems: z
    .array(z.object({ field: z.string(), error: z.string() }))
    .optional()
    .describe('When a body has several problems (a sweep spec refused for several fields), every one of them, the first being `field` and `error`.'),
});

export const Estimate = z.object({
  cpuHours: z.number().describe('Expected CPU-hours of every game (from measured per-iteration costs, calibrated against measured game CPU time; see MAX_CPU_HOURS).'),
  maxGameSeconds: z.number().describe('The bound of the costliest game\'s seconds on a busy worker, about 2.5 times its CPU time (see MAX_GAME_SECONDS: a game must finish within a stopping worker\'s grace).'),
});

export const SweepCreated = z.object({
  id: z.string(),
  name: z.string(),
  games: z.number().int().describe('Games in the sweep.'),
  cells: z.number().int().describe('Points of the parameter grid.'),
  estimate: Estimate,
  url: z.string().describe("The sweep's page on the dashboard, as the play page's games answer theirs: /sweeps/{id}."),
  api: z.string().describe('Where its status and aggregates are in the API (also the Location header): /api/sweeps/{id}.'),
});

export const SweepCountsSchema = z.object({
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  queued: z.number().int().describe('In the queue now (waiting or being played).'),
  pending: z.number().int().describe('Not yet handed to the queue.'),
  skipped: z.number().int().describe("Never to be played: their cell's stopping rule (spec.stop) decided first."),
});

export const SweepOverviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SWEEP_STATUSES),
  priority: z.number().int(),
  created: z.string().describe('ISO 8601'),
  counts: SweepCountsSchema,
  progress: z.number().min(0).max(1),
  gamesPerSecond: z.number().describe('While running: the recent rate (the last 5 minutes of running time); once finished: over its whole running time. Paused time never counts.'),
  etaSeconds: z.number().nullable().describe('Seconds to go at that rate (null when not running, or before a rate is known).'),
  activeSeconds: z.number().describe('Seconds the sweep has spent running, paused time not counted (for sweeps stored before the clock, schema version 0, paused time until the migration counts as running).'),
  batch: z.number().int().describe('Games per queue job: about BATCH_SECONDS of estimated play each (1: a job per game). A batch delivered again plays only its games not yet stored.'),
  schedule: z.enum(['interleaved', 'sequential']).describe('The order games are queued in: interleaved across the cells deal by deal, so every cell progresses together (sequential: sweeps stored before).'),
  firstGameAt: z.string().nullable().describe('ISO 8601: when the first game finished (null before)'),
  lastGameAt: z.string().nullable().describe('ISO 8601: when the latest game finished; with firstGameAt, the wall time a finished sweep took'),
  degraded: z
    .string()
    .nullable()
    .describe('Why a running sweep makes no progress now (Redis out of memory: no new game is queued, results may wait); it resumes by itself once memory is free. Null otherwise.'),
  suspended: z.string().nullable().describe('Why the lab paused the sweep itself: an outside agent failed AGENT_SUSPEND_AFTER of its games in a row (the reason names it and its last fault); resuming clears it. Null otherwise.'),
});

const Interval = z.object({ low: z.number(), high: z.number() });
const Paired = z.object({ groups: z.number().int(), mean: z.number(), halfWidth: z.number() });
const Rate = { games: z.number().int(), wins: z.number().int(), winRate: z.number(), halfWidth: z.number(), wilson: Interval };

export const LabelAggregateSchema = z.object({
  label: z.string().describe('The agent spec; seats with the same spec are pooled.'),
  config: z.string().describe('Its canonical spec: the same configuration however a sweep writes it.'),
  seats: z.number().int(),
  ...Rate,
  ties: z.number().int().describe('Most VP shared with another seat (not a win).'),
  coinWins: z.number().int().describe('Rulebook wins on coins after a VP tie (not a win).'),
  vp: z.object({ n: z.number(), mean: z.number(), sd: z.number(), min: z.number(), q1: z.number(), median: z.number(), q3: z.number(), max: z.number() }),
  vpMeanHalfWidth: z.number().describe('Half-width of the normal 95 % interval of the mean VP (n = vp.n).'),
  score: z.record(z.string(), z.number()).describe('Mean points per category.'),
  meanStages: z.number(),
  ranks: z.array(z.number().int()).describe('Games per rank, rank 1 first.'),
  decisionMs: z.number(),
  iterationsPerSecond: z.number(),
  cutShort: z.number().int(),
  wonders: z.array(z.object({ wonder: z.string(), side: z.string(), ...Rate, meanStages: z.number(), meanVp: z.number() })),
  cards: z
    .array(
      z.object({
        card: z.string(),
        count: z.number().int().describe('Wins whose city built it.'),
        frequency: z.number().describe('count / wins.'),
        games: z.number().int().describe('Games (won or not) whose city built it.'),
        baseRate: z.number().nullable().describe('games / all games (null for games aggregated before base rates were counted).'),
        lift: z.number().nullable().describe('frequency / baseRate: above 1, the card is more common in wins than in all of the agent\'s games.'),
      }),
    )
    .describe("Cards in this agent's winning cities, against their base rate in all of its cities."),
  progression: z.array(z.object({ games: z.number().int(), winRate: z.number() })).describe('Cumulative win rate by game index.'),
  paired: Paired.optional().describe('Mean of per-deal win rates over complete paired groups, with a 95 % interval.'),
});

export const CellAggregateSchema = z.object({
  index: z.number().int(),
  agents: z.array(z.string()),
  swept: z.record(z.string(), z.union([z.string(), z.number()])),
  games: z.number().int(),
  decidedBy: z.object({ vp: z.number().int(), coins: z.number().int(), shared: z.number().int() }),
  labels: z.array(LabelAggregateSchema),
  roles: z
    .array(z.object({ seat: z.number().int(), agent: z.string(), ...Rate, meanVp: z.number(), paired: Paired.optional() }))
    .describe("Per seat of the spec: that seat's agent wherever the seating moves it (even when its spec also sits elsewhere)."),
  stopped: z
    .object({
      rule: z.enum(['sprt', 'interval', 'race']),
      games: z.number().int().describe("The cell's games evaluated, in play order (its first games)."),
      decision: z.enum(['H0', 'H1', 'interval', 'max', 'out', 'won', 'raced']).optional().describe('H0 / H1: the SPRT accepted it; interval: narrow enough; max: every game played undecided; a racing tune\'s arm: out, dropped from the race; won, returned by it; raced, still racing when it decided. Absent while undecided.'),
      value: z.number().describe("The statistic now: the SPRT's log-likelihood ratio, the interval's half-width, or a race arm's mean deal score."),
      score: z.object({ mean: z.number(), halfWidth: z.number(), outcomes: z.number().int() }).optional().describe("The SPRT's mean score of a against b, with its 95 % interval's half-width over its outcomes (a deal's games one outcome)."),
      bounds: z.tuple([z.number(), z.number()]).optional().describe("The SPRT's bounds: accept H0 at or below the first, H1 at or above the second."),
      trace: z.array(z.object({ games: z.number().int(), value: z.number() })).describe('The statistic as the games came in (at most about 200 points).'),
    })
    .nullable()
    .optional()
    .describe("With a stopping rule (spec.stop): where the cell's test stands (null before its first game)."),
  pairedDifference: Paired.extend({ seats: z.tuple([z.number().int(), z.number().int()]), labels: z.tuple([z.string(), z.string()]) })
    .optional()
    .describe("Paired difference of the compared roles' win rates (swap or matchup seats): first minus second."),
});

const RateWithVp = z.object({ ...Rate, meanVp: z.number(), meanVpHalfWidth: z.number().describe('Half-width of the 95 % interval of the mean VP.') });

export const PooledLabelSchema = LabelAggregateSchema.omit({ seats: true, progression: true }).extend({ cells: z.number().int().describe('Cells pooled.') });

const ParameterPointSchema = RateWithVp.extend({ value: z.union([z.string(), z.number()]), cells: z.number().int(), meanVpInterval: Interval });

export const ParameterSeriesSchema = z.object({
  key: z.string().describe('The swept field, e.g. seats.0.c.'),
  seat: z.number().int().describe("The spec's seat whose agent the value changes."),
  name: z.string().describe("The parameter's short name in the parameter table (GET /api/schema/agents.json), e.g. 'exploration constant C'."),
  meaning: z.string().describe('Its one-line meaning there.'),
  numeric: z.boolean().describe('Every value is a number.'),
  points: z.array(ParameterPointSchema).describe("The swept seat's agent at each value, pooled over the other swept parameters."),
  lines: z
    .array(z.object({ given: z.record(z.string(), z.union([z.string(), z.number()])), label: z.string(), points: z.array(ParameterPointSchema) }))
    .optional()
    .describe('With other parameters swept too (a grid): one line per combination of their values.'),
});

export const MatchupWinsSchema = z.object({
  seats: z.tuple([z.number().int(), z.number().int()]),
  specs: z.array(z.string()),
  rows: z.array(z.array(RateWithVp.nullable())).describe('rows[i][j]: specs[i] in the first matchup seat against specs[j] in the second: its wins (the thesis\'s view); null on the diagonal.'),
});

export const HeadToHeadSchema = z.object({
  configs: z.array(z.string()).describe('Every agent configuration of the sweep (the same agent however it is written).'),
  rows: z
    .array(z.array(z.object({ games: z.number().int(), more: z.number().int(), ties: z.number().int(), score: z.number(), interval: Interval }).nullable()))
    .describe('rows[i][j]: configs[i] against configs[j] at the same table: score = (games it scored more VP + ties / 2) / games, with its Wilson 95 % interval; null on the diagonal.'),
});

export const StatisticsAsOfSchema = z
  .object({
    version: z.number().int().describe('Games finished, failed and skipped that the statistics are of.'),
    computedAt: z.string().describe('ISO 8601: when they were computed.'),
    current: z.boolean().describe('Whether that is every game now (else newer statistics are being computed: FIT_WAIT_MS).'),
  })
  .describe("A sweep's statistics (cells, pooled, parameters, head to head, ratings) are computed on a thread of their own and kept by version: which games these are of.");

export const RatingsSchema = z.object({
  method: z.string(),
  anchor: z.string().describe('What 0 Elo is.'),
  games: z.number().int().describe('Games with two or more configurations at the table.'),
  components: z.number().int().describe('Sets of configurations compared directly or through others (ratings compare only within one).'),
  ratings: z
    .array(z.object({ config: z.string(), elo: z.number(), low: z.number(), high: z.number(), se: z.number(), games: z.number().int(), comparisons: z.number().int(), component: z.number().int() }))
    .describe('Best first: Elo (400 / ln 10 per unit of log-odds) with its 95 % interval.'),
});

const CodeVersionSchema = z.object({
  package: z.string(),
  version: z.string(),
  commit: z.string().optional().describe('git commit, where known'),
  dirty: z.boolean().optional().describe('tracked files differed from the commit'),
  node: z.string(),
});

export const ProvenanceSchema = z.object({
  code: CodeVersionSchema.nullable().describe("The coordinator's code when the sweep was created (null for sweeps stored before this was kept)."),
  models: z.record(z.string(), z.string()).optional().describe('The models its agents name, each with the sha256 of the file checked at submit (absent where none is named).'),
  created: z.string().describe('ISO 8601'),
  startedAt: z.string().nullable().describe('ISO 8601: when its first games were queued'),
  finishedAt: z.string().nullable().describe('ISO 8601: when it became done or was cancelled'),
  wallSeconds: z.number().nullable().describe('From start to finish (or to now, while unfinished).'),
  activeSeconds: z.number().describe('Of those, running (paused time not counted).'),
  cpuSeconds: z.number().nullable().describe("CPU time of its games' threads, summed."),
  workers: z.array(z.object({ host: z.string(), pid: z.number().int(), version: z.string(), commit: z.string().optional(), dirty: z.boolean().optional(), cpu: z.string().optional(), cores: z.number().int().optional(), games: z.number().int() })).describe('The worker processes that stored its games (host, pid, code version, processor model and logical cores), and how many each.'),
});

export const PaperComparisonSchema = z.object({
  id: z.string().describe("The published table (the spec's paper)."),
  title: z.string(),
  preset: z.string(),
  rule: z
    .object({ margin: z.number(), alpha: z.number(), tolerance: z.number(), minGames: z.number().int() })
    .describe("The verdict rule's numbers: the equivalence margin (a fraction), Holm's family-wise α, the slack on every edge, and the games a row needs for a verdict."),
  agrees: z.number().int(),
  inconclusive: z.number().int(),
  differs: z.number().int(),
  tooFew: z.number().int().describe('Rows played with fewer games than rule.minGames: no verdict.'),
  notRun: z.number().int(),
  rows: z.array(
    z.object({
      label: z.string(),
      seat: z.number().int().describe("The spec's seat whose agent the row is about."),
      paper: z.object({ winRate: z.number(), halfWidth: z.number(), low: z.number(), high: z.number(), vp: z.number().nullable() }).describe('As printed, as fractions.'),
      ours: z.object({ games: z.number().int(), wins: z.number().int(), winRate: z.number(), halfWidth: z.number(), wilson: Interval, vp: z.number().nullable() }).nullable(),
      difference: z
        .object({ estimate: z.number(), se: z.number(), low: z.number(), high: z.number(), z: z.number(), p: z.number(), pHolm: z.number() })
        .nullable()
        .describe("ours − paper as fractions, se from both samples' errors (ours Agresti–Coull's), its 95 % interval, the z-test's two-sided p and p Holm-adjusted over the table's rows with a verdict (null when not run or too few games)."),
      verdict: z
        .enum(['agrees', 'inconclusive', 'differs', 'too few games', 'not run'])
        .describe('agrees: the 95 % interval of ours − paper lies within ± 5 points; differs: its z-test is significant at 0.05 after Holm over the table; inconclusive: neither; too few games: fewer of our games than rule.minGames, no verdict.'),
      direction: z.enum(['above', 'below']).nullable().describe('A row that differs: ours above or below the paper.'),
      reason: z.string().nullable().describe('Why a row differs (published-reasons.json), null otherwise or when none is given.'),
      at: z.object({ key: z.string(), value: z.union([z.string(), z.number()]) }).nullable().describe('The swept value the row is at (the parameter chart draws it there).'),
    }),
  ),
});

const ConfirmationViewSchema = z
  .object({ sweep: z.string(), status: z.string(), games: z.number().int(), decision: z.string().nullable(), llr: z.number().nullable(), score: z.object({ mean: z.number(), halfWidth: z.number(), outcomes: z.number().int() }).nullable() })
  .nullable()
  .describe("The recommendation against the reference on held-out deals: the confirmation sweep, its SPRT's decision and the recommendation's score with its interval.");

const RacingTuneViewSchema = z.object({
  method: z.literal('racing'),
  race: z
    .object({
      rule: z.object({ seat: z.number().int(), against: z.number().int().optional(), delta: z.number(), epsilon: z.number(), roundDeals: z.number().int() }),
      looks: z.number().int(),
      radius: z.number().nullable().describe('The confidence radius at the last look: sqrt(ln(4 K j² / δ) / 2t).'),
      arms: z.array(z.object({ cell: z.number().int(), agent: z.string(), deals: z.number().int(), mean: z.number(), alive: z.boolean(), eliminatedAt: z.number().int().optional() })),
      leader: z.number().int(),
      decided: z.object({ cell: z.number().int(), agent: z.string(), by: z.enum(['elimination', 'epsilon', 'budget']) }).optional(),
      history: z.array(z.object({ look: z.number().int(), deals: z.number().int(), radius: z.number(), means: z.array(z.number().nullable()) })).describe('Every look: deals per arm, the radius, each arm\'s mean (null once it has left).'),
    })
    .nullable()
    .describe('The race: each arm\'s mean deal score at the last look, which left and when, the radius, and once decided the arm returned and why (budget: the deals ran out first, undecided).'),
  recommendation: z.string().nullable().describe('The arm the race returned, as a spec to paste into a sweep.'),
  confirmation: ConfirmationViewSchema,
  note: z.string().nullable().describe('Why there is no confirmation, when there is none.'),
});

const SteppedTuneViewSchema = z.object({
  method: z.enum(['spsa', 'ntbea']),
  steps: z.number().int().describe('Steps in the budget (SPSA: game pairs; NTBEA: evaluations).'),
  proposed: z.number().int().describe('Steps proposed so far (each a sweep of its own).'),
  applied: z.number().int().describe('Steps whose results the search has applied, in the order recorded.'),
  options: z.array(z.string()).describe('The options searched, by spec key.'),
  space: z.array(z.object({ key: z.string(), scale: z.string(), min: z.number(), max: z.number(), values: z.array(z.union([z.string(), z.number()])).optional() })).describe("The space searched: each option's scale and bounds (SPSA), or its listed values (NTBEA; min and max then index them)."),
  trajectory: z
    .array(z.object({ k: z.number().int(), values: z.array(z.number()), low: z.array(z.number()), high: z.array(z.number()), s: z.number() }))
    .describe("SPSA: after each applied step, the options' values, the band θ ± c_k in the options' units, and the step's result s (θ+'s wins minus losses)."),
  evaluations: z.array(z.object({ k: z.number().int(), values: z.array(z.union([z.string(), z.number()])), value: z.number().nullable() })).describe('NTBEA: every point evaluated, in order, with its mean head-to-head score (null: its games all failed).'),
  estimates: z
    .array(z.object({ key: z.string(), values: z.array(z.object({ value: z.union([z.string(), z.number()]), n: z.number().int(), mean: z.number().nullable(), halfWidth: z.number().nullable() })) }))
    .describe("NTBEA: per option, each value's mean evaluation with its 95 % half-width (the 1-tuples)."),
  inFlight: z.array(z.string()).describe('The step sweeps not yet applied.'),
  recommendation: z.string().describe('The recommendation as a spec to paste into a sweep: final once the tune is done, else where the search stands.'),
  final: z.boolean(),
  confirmation: ConfirmationViewSchema,
  note: z.string().nullable().describe('Why there is no confirmation, when there is none.'),
});

export const SweepDetailSchema = SweepOverviewSchema.extend({
  spec: z.record(z.string(), z.unknown()).describe('The spec as stored (defaults filled in).'),
  gamesPerCell: z.number().int(),
  cellCount: z.number().int().describe('Cells of the sweep; `cells` holds those from cellOffset on, at most cellLimit.'),
  cellOffset: z.number().int(),
  provenance: ProvenanceSchema,
  cellProgress: z
    .array(z.object({ index: z.number().int(), total: z.number().int(), done: z.number().int(), failed: z.number().int(), queued: z.number().int() }))
    .describe("Every cell's games: total, done, failed and in the queue now."),
  names: z
    .record(z.string(), z.string())
    .describe('Every agent spec of the sweep as submitted, with its canonical form: the one name the dashboard, the CLI and the ladder show it by (`mcts:100,10,100` and `mcts(it=100)` are both `mcts`). Results stay keyed by the spec as submitted.'),
  cells: z.array(CellAggregateSchema),
  pooled: z.array(PooledLabelSchema).describe('Every agent pooled over every cell it plays in (all cells): counters summed, so every mean is weighted by what it counts.'),
  parameters: z.array(ParameterSeriesSchema).describe("Each swept parameter: the swept seat's agent at each value, pooled over the cells with it."),
  matchup: MatchupWinsSchema.optional(),
  headToHead: HeadToHeadSchema.optional().describe('With two or more configurations: who outscores whom at the same table.'),
  headToHeadNote: z.string().optional().describe('Past 64 configurations the matrix is left out (a table nobody reads, megabytes of JSON): this says so.'),
  ratings: RatingsSchema.optional().describe('With two or more configurations: Bradley–Terry ratings on the Elo scale (GET /api/sweeps/:id/ratings takes an anchor).'),
  statisticsAsOf: StatisticsAsOfSchema,
  paper: PaperComparisonSchema.optional().describe("For a sweep whose spec names a published table: the paper's rows beside ours, each with REPRODUCTION.md's verdict (agrees, inconclusive, differs)."),
  tune: z
    .union([RacingTuneViewSchema, SteppedTuneViewSchema])
    .optional()
    .describe('For a tune (spec.tune): the search and its confirmation.'),
  confirms: z.string().optional().describe('For a confirmation sweep: the tune it confirms.'),
  stepOf: z.string().optional().describe('For a step of an SPSA or NTBEA tune (a sweep not listed among the sweeps): the tune.'),
});


export const RatingsResponse = z.object({
  statisticsAsOf: StatisticsAsOfSchema,
  id: z.string(),
  name: z.string(),
  status: z.enum(SWEEP_STATUSES),
  done: z.number().int(),
  headToHead: HeadToHeadSchema.nullable(),
  ratings: RatingsSchema.nullable(),
  note: z.string().optional(),
});

export const GamesPage = z.object({
  offset: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  items: z.array(
    z.object({
      index: z.number().int(),
      id: z.string(),
      cell: z.number().int(),
      state: z.enum(['done', 'failed', 'queued', 'pending', 'skipped']).describe("skipped: its cell's stopping rule decided before it was queued; it is never played"),
      summary: z.record(z.string(), z.unknown()).optional(),
      error: z.string().optional(),
    }),
  ),
});

// A game's timeline (GET /api/sweeps/:id/games/:gameId/timeline): the record replayed step by step.

const count = z.number().int().min(0);

const ScoreSchema = z
  .object({ ...Object.fromEntries(SCORE_CATEGORIES.map((c) => [c, z.number().int()])), total: z.number().int() })
  .describe('Points by category and their total (military can be negative: defeat tokens).');

const DecodedMoveSchema = z.object({
  card: z.string(),
  age: z.number().int().describe('The card\'s Age (Loom, Glassworks and Press exist in Ages I and II).'),
  action: z.enum(ACTION_NAMES),
  payLeft: count.describe('Coins paid to the left neighbour.'),
  payRight: count.describe('Coins paid to the right neighbour.'),
});

export const RecordedSearchSchema = z
  .object({
    iterations: count,
    ms: z.number().min(0).describe('Wall time of the decision, milliseconds.'),
    carried: count.optional().describe('reuse=on: visits the kept subtree brought in; the moves\' visits add up to at most iterations + carried.'),
    depth: count.optional().describe('Minimax: the depth (plies) searched in every world; iterations are then the nodes searched.'),
    network: z.array(z.number()).optional().describe("A network-guided search: the network's prediction of every seat's final VP (seat order, 0.1 VP), from the deciding seat's own observation."),
    moves: z
      .array(
        z.object({
          move: DecodedMoveSchema,
          visits: count,
          value: z.number().describe('MCTS: the deciding seat\'s mean reward over those visits, in [0, 1]; minimax: its mean value over the worlds (visits), an estimated VP margin over the best other seat.'),
          votes: count.optional().describe('det=pimc: how many of its trees chose this move.'),
        }),
      )
      .max(8)
      .describe('The most visited root moves (minimax: the best valued), most visited first; the move played is among them.'),
  })
  .describe("A search's root statistics (MCTS or minimax).");

export const RecordedMoveSchema = DecodedMoveSchema.extend({
  seat: count,
  search: RecordedSearchSchema.optional().describe('On a move a searching seat chose among two or more (absent for other agents, forced moves, records stored before it was kept, and with ?seat= for the other seats). With ?seat=, another seat\'s stage or discard has card \'\' (face down).'),
});

const SeatSnapshotSchema = z.object({
  seat: count,
  hand: z.array(z.string()).describe('The hand it chooses from (empty for another seat in a seat\'s point of view: see hidden).'),
  coins: count,
  shields: count,
  militaryPoints: z.number().int().describe('From conflict tokens so far.'),
  stages: count,
  cityCards: count,
  hidden: z
    .object({ size: count, candidates: z.array(z.string()).nullable().describe('The cards the viewer knows this hand may hold (it saw the hand earlier), or null') })
    .optional()
    .describe('?seat=: another seat\'s hand as the viewer knew it.'),
});

export const TimelineSchema = z.object({
  steps: z.array(
    z.object({
      age: z.number().int().min(1).max(3),
      turn: z.number().int(),
      phase: z.enum(PHASE_NAMES),
      moves: z.array(RecordedMoveSchema).describe('The moves of the seats acting in this step.'),
      before: z.array(SeatSnapshotSchema).describe('Every seat just before the step\'s moves.'),
      scores: z
        .array(ScoreSchema)
        .describe("Every seat's running score just after the step's moves (conflicts at the end of an Age included): what its city would score if the game ended there. The last step's are the final scores."),
    }),
  ),
});

export const LadderResponse = z.object({
  anchor: z.string().describe('What 0 is.'),
  games: z.number().int().describe('Games with two or more configurations at the table, over every sweep.'),
  batch: RatingsSchema.nullable().describe('Plackett–Luce batch fit over every finishing order, on the Elo scale, best first (null until the first fit of a large ladder is ready).'),
  batchFit: z
    .object({ games: z.number().int().nullable(), fittedAt: z.string().nullable(), current: z.boolean() })
    .describe('The batch fit runs on a thread of its own when games come in: the games it is of, when it was made, whether it is of every game fed.'),
});
