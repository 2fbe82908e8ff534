/**
 * The API's inputs and outputs as zod schemas: requests are validated with them and the OpenAPI
 * document is generated from them, so the two cannot drift apart.
 */
import { z } from 'zod';
import { SWEEP_STATUSES } from '@wonderlab/shared/store';

export const SweepIdParams = z.object({ id: z.string().regex(/^[a-z0-9]{6,40}$/, 'not a sweep id') });
export const GameParams = SweepIdParams.extend({
  gameId: z.string().regex(/^c\d+-(s\d+-)?d\d+-o\d+$/, 'not a game id (c<cell>-[s<set>-]d<deal>-o<order>)'),
});

export const GamesQuery = z.strictObject({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const ExportQuery = z.strictObject({
  format: z.enum(['csv', 'jsonl']).default('jsonl'),
});

export const ErrorBody = z.object({
  error: z.string().describe('What is wrong, in one sentence.'),
  field: z.string().optional().describe("The offending field's path, e.g. 'seats.1' or 'deals.count'."),
});

export const SweepCreated = z.object({
  id: z.string(),
  name: z.string(),
  games: z.number().int().describe('Games in the sweep.'),
  cells: z.number().int().describe('Points of the parameter grid.'),
  url: z.string().describe('Where its status and aggregates are.'),
});

export const SweepCountsSchema = z.object({
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  queued: z.number().int().describe('In the queue now (waiting or being played).'),
  pending: z.number().int().describe('Not yet handed to the queue.'),
});

export const SweepOverviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SWEEP_STATUSES),
  priority: z.number().int(),
  created: z.string().describe('ISO 8601'),
  counts: SweepCountsSchema,
  progress: z.number().min(0).max(1),
  gamesPerSecond: z.number(),
  etaSeconds: z.number().nullable(),
});

const Interval = z.object({ low: z.number(), high: z.number() });
const Paired = z.object({ groups: z.number().int(), mean: z.number(), halfWidth: z.number() });
const Rate = { games: z.number().int(), wins: z.number().int(), winRate: z.number(), halfWidth: z.number(), wilson: Interval };

export const LabelAggregateSchema = z.object({
  label: z.string().describe('The agent spec; seats with the same spec are pooled.'),
  seats: z.number().int(),
  ...Rate,
  ties: z.number().int().describe('Most VP shared with another seat (not a win).'),
  coinWins: z.number().int().describe('Rulebook wins on coins after a VP tie (not a win).'),
  vp: z.object({ n: z.number(), mean: z.number(), sd: z.number(), min: z.number(), q1: z.number(), median: z.number(), q3: z.number(), max: z.number() }),
  score: z.record(z.string(), z.number()).describe('Mean points per category.'),
  meanStages: z.number(),
  ranks: z.array(z.number().int()).describe('Games per rank, rank 1 first.'),
  decisionMs: z.number(),
  iterationsPerSecond: z.number(),
  cutShort: z.number().int(),
  wonders: z.array(z.object({ wonder: z.string(), side: z.string(), ...Rate, meanStages: z.number(), meanVp: z.number() })),
  cards: z.array(z.object({ card: z.string(), count: z.number().int(), frequency: z.number() })).describe("Cards in this agent's winning cities."),
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
  pairedDifference: Paired.extend({ seats: z.tuple([z.number().int(), z.number().int()]), labels: z.tuple([z.string(), z.string()]) })
    .optional()
    .describe("Paired difference of the compared roles' win rates (swap or matchup seats): first minus second."),
});

export const SweepDetailSchema = SweepOverviewSchema.extend({
  spec: z.record(z.string(), z.unknown()).describe('The spec as stored (defaults filled in).'),
  gamesPerCell: z.number().int(),
  cells: z.array(CellAggregateSchema),
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
      state: z.enum(['done', 'failed', 'queued', 'pending']),
      summary: z.record(z.string(), z.unknown()).optional(),
      error: z.string().optional(),
    }),
  ),
});
