/** The OpenAPI 3.1 document of the coordinator, generated from the zod schemas. */
import { z } from 'zod';
import { SweepSpecSchema, agentCatalog } from '@wonderlab/shared';
import * as api from './api-schemas.js';
import { PlayCreateSchema, PlayHintSchema, PlayMoveSchema } from './routes/play.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/** Computed once: the schemas never change while the process runs, and generating them takes milliseconds (the OpenAPI document about 20). */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

export const sweepSpecJsonSchema = once((): object => ({ $id: 'sweep-spec.json', title: 'Wonderlab sweep spec', ...json(SweepSpecSchema, 'input') }));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (name: string) => ({ 'application/json': { schema: ref(name) } });
const error = (description: string) => ({ description, content: content('Error') });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const bearer = [{ bearer: [] }];
/** The answer every POST gives without a JSON content type (http.ts, requireJsonContentType). */
const NEEDS_JSON = 'No `Content-Type: application/json` (every POST, PUT, PATCH or DELETE needs it, with a body or without): `field` is `headers.content-type`';
/** The rule as a client reads it, on every operation that changes something. */
const JSON_RULE = 'Send `Content-Type: application/json`, even without a body: a cross-site HTML form cannot, so the lab refuses a change without it (415).';
const query = (...names: string[]) => names.map((name) => ({ name, in: 'query', schema: { type: 'integer', minimum: 0 } }));

export const openApiDocument = once(makeOpenApiDocument);

/** The play page's game token. */
const playToken = { name: 'X-Play-Token', in: 'header', required: true, schema: { type: 'string' }, description: 'the token the game was created with' };

function makeOpenApiDocument(): object {
  const action = (summary: string) => ({
    post: {
      summary,
      description: `No body. ${JSON_RULE}`,
      security: bearer,
      parameters: [idParam],
      responses: { 200: { description: 'The sweep after the change', content: content('SweepOverview') }, 401: error('Missing or wrong token'), 404: error('No such sweep'), 409: error('Not possible in the sweep\'s status'), 415: error(NEEDS_JSON) },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wonderlab coordinator',
      version: '1.0.0',
      description: [
        'Submit sweeps of 7 Wonders games between AI agents; follow their results live.',
        `Every POST, PUT, PATCH or DELETE needs \`Content-Type: application/json\`, with a body or without (a 415 naming \`headers.content-type\` otherwise): an HTML form on another site cannot send that type, and a script on another site cannot send it without a CORS preflight, which this API never grants.`,
        'With ALLOWED_HOSTS set, a request whose Host header names another host gets a 421 naming `headers.host` (except /healthz, /readyz and /metrics).',
      ].join(' '),
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Needed on mutating routes when the server has API_TOKEN set.' } },
      schemas: {
        SweepSpec: json(SweepSpecSchema, 'input'),
        Error: json(api.ErrorBody),
        SweepCreated: json(api.SweepCreated),
        SweepOverview: json(api.SweepOverviewSchema),
        SweepDetail: json(api.SweepDetailSchema),
        GamesPage: json(api.GamesPage),
        Ratings: json(api.RatingsResponse),
        Ladder: json(api.LadderResponse),
        RecordedMove: json(api.RecordedMoveSchema),
        Timeline: json(api.TimelineSchema),
        PlayCreate: json(PlayCreateSchema, 'input'),
        PlayMove: json(PlayMoveSchema, 'input'),
        PlayHint: json(PlayHintSchema, 'input'),
      },
    },
    paths: {
      '/api/sweeps': {
        post: {
          summary: 'Validate, store and start a sweep',
          description: JSON_RULE,
          security: bearer,
          requestBody: { required: true, content: content('SweepSpec') },
          responses: { 201: { description: 'Created', content: content('SweepCreated') }, 400: error('Invalid spec (the field is named) or over one of the lab\'s limits: cells, games, per-move budget, estimated cost, body size or depth'), 401: error('Missing or wrong token'), 415: error(NEEDS_JSON) },
        },
        get: {
          summary: 'The sweeps, newest first, a page at a time (limit: at most MAX_PAGE_ITEMS, default 100)',
          parameters: query('offset', 'limit'),
          responses: { 200: { description: 'Sweeps', content: { 'application/json': { schema: { type: 'array', items: ref('SweepOverview') } } } }, 400: error('Bad paging') },
        },
      },
      '/api/sweeps/validate': {
        post: {
          summary: 'Check a spec without storing it (no token needed): its game and cell counts, or the 400 POST /api/sweeps would give',
          description: JSON_RULE,
          requestBody: { required: true, content: content('SweepSpec') },
          responses: { 200: { description: '{ ok, games, cells, gamesPerCell, estimate: { cpuHours, maxGameSeconds } }' }, 400: error('Invalid spec (the field is named) or over one of the lab\'s limits (named with the value)'), 415: error(NEEDS_JSON) },
        },
      },
      '/api/sweeps/{id}': {
        get: {
          summary: 'Status, counts by state and per-cell aggregates, a page of cells at a time (cellLimit: at most MAX_PAGE_CELLS, the default)',
          parameters: [idParam, ...query('cellOffset', 'cellLimit')],
          responses: { 200: { description: 'The sweep', content: content('SweepDetail') }, 400: error('Bad paging'), 404: error('No such sweep') },
        },
      },
      '/api/sweeps/{id}/games': {
        get: {
          summary: 'Games by index, a page at a time',
          parameters: [idParam, ...query('offset', 'limit')],
          responses: { 200: { description: 'A page', content: content('GamesPage') }, 400: error('Bad paging'), 404: error('No such sweep') },
        },
      },
      '/api/sweeps/{id}/games/{gameId}': {
        get: {
          summary: "One game's summary and full move record (when the sweep keeps records): `record.steps[].moves[]` are RecordedMove objects, an MCTS seat's with its search statistics",
          parameters: [idParam, { name: 'gameId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'The game' }, 400: error('Malformed sweep or game id'), 404: error('No such sweep or game not played yet') },
        },
      },
      '/api/sweeps/{id}/games/{gameId}/timeline': {
        get: {
          summary: "The game replayed step by step: every seat's hand, coins and military before each step, the moves (a searching seat's with its search: iterations, time and the most visited moves with visits and mean reward), and every seat's running score by category after it; with ?seat=, only what that seat knew (others' hands as sizes and the cards it knew they may hold, others' stage and discard cards face down, only its own searches)",
          parameters: [idParam, { name: 'gameId', in: 'path', required: true, schema: { type: 'string' } }, { name: 'seat', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: "a seat's point of view" }],
          responses: { 200: { description: 'The steps', content: content('Timeline') }, 400: error('Malformed sweep or game id'), 404: error('No such sweep, or no stored record') },
        },
      },
      '/api/sweeps/{id}/export': {
        get: {
          summary: 'Every finished game, streamed (CSV: one row per seat; JSONL: one summary per line)',
          parameters: [idParam, { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'jsonl'] } }],
          responses: { 200: { description: 'The export', content: { 'text/csv': {}, 'application/x-ndjson': {} } }, 400: error('Unknown format'), 404: error('No such sweep') },
        },
      },
      '/api/sweeps/{id}/training': {
        get: {
          summary: "A page of the sweep's games as training rows, one NumPy .npz archive (numpy.load): per decision the seat's observation, legal-action mask, the search's visit distribution (every root move with training: true), the move played, and every seat's final VP and rank; meta_json says which games and the next page's `from` (docs/learning.md)",
          parameters: [
            idParam,
            { name: 'from', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'the first game (index in the sweep); default 0' },
            { name: 'games', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 2000 }, description: 'how many games; default 1000' },
            { name: 'agent', in: 'query', schema: { type: 'string' }, description: "only seats played by this agent (as written, or canonical); default every seat" },
          ],
          responses: { 200: { description: 'The archive', content: { 'application/octet-stream': {} } }, 400: error('A bad query field'), 404: error('No such sweep'), 409: error('The sweep keeps no move records'), 429: error('TRAINING_BUILDS pages are being built already: retry after Retry-After seconds') },
        },
      },
      '/api/sweeps/{id}/summary': {
        get: {
          summary: 'One row per cell and agent, the swept parameters as columns, then games, wins, win_rate, ci_low, ci_high (Wilson 95 %), vp_mean, vp_sd, … — CSV, or JSON records (pandas.read_json reads them as they are)',
          parameters: [idParam, { name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv'] } }],
          responses: { 200: { description: 'The table', content: { 'text/csv': {}, 'application/json': {} } }, 400: error('Unknown format'), 404: error('No such sweep') },
        },
      },
      '/api/sweeps/{id}/paper': {
        get: {
          summary: "For a sweep that names a published table (spec.paper): a row per paper row — the paper's win rate and half-width, ours with its Wilson 95 % interval, ours − paper with its interval and Holm's p, the verdict (agrees, inconclusive, differs; `too few games` under min_games of ours; `not run`) — CSV, or JSON records",
          parameters: [idParam, { name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv'] } }],
          responses: { 200: { description: 'The table', content: { 'text/csv': {}, 'application/json': {} } }, 400: error('Unknown format'), 404: error('No such sweep, or it names no published table') },
        },
      },
      '/api/sweeps/{id}/ratings': {
        get: {
          summary: "The sweep's agent configurations against each other: head-to-head matrix (more VP at the same table, ties half, Wilson intervals) and Bradley–Terry ratings on the Elo scale with 95 % intervals",
          parameters: [idParam, { name: 'anchor', in: 'query', schema: { type: 'string' }, description: 'a configuration to put at 0 Elo (default: the mean)' }],
          responses: { 200: { description: 'Matrix and ratings (null with fewer than two configurations)', content: content('Ratings') }, 400: error('Unknown anchor'), 404: error('No such sweep') },
        },
      },
      '/api/sweeps/{id}/events': {
        get: { summary: 'Server-Sent Events: `sweep` events carrying the SweepOverview and its `version` (games finished, failed and skipped) whenever games finish or the status changes; fetch the detail when the version changes. Nothing is sent for a finished sweep but keep-alives; a client that does not read is dropped.', parameters: [idParam], responses: { 200: { description: 'An event stream', content: { 'text/event-stream': {} } }, 404: error('No such sweep') } },
      },
      '/api/sweeps/{id}/cancel': action('Cancel: no more games are played'),
      '/api/sweeps/{id}/pause': action('Pause: queued games are taken back; running ones finish'),
      '/api/sweeps/{id}/resume': action('Resume a paused sweep'),
      '/api/sweeps/{id}/retry-failed': action('Play the failed games again'),
      '/api/schema/sweep-spec.json': { get: { summary: 'The sweep spec as JSON Schema', responses: { 200: { description: 'JSON Schema' } } } },
      '/api/schema/agents.json': {
        get: {
          summary: "Every agent kind and MCTS option: key, range, each named agent's default, meaning (the parameter table a seat's params and spec strings are read with)",
          responses: { 200: { description: '{ kinds, parameters, buryRule }', content: { 'application/json': { example: agentCatalog() } } } },
        },
      },
      '/api/ratings': {
        get: {
          summary: "The lab's ladder: every agent configuration ever played (canonical spec), rated from every recorded game's full finishing order (Plackett–Luce batch fit with 95 % intervals); 0 is the rule-based player, or ?anchor=<spec>",
          parameters: [{ name: 'anchor', in: 'query', required: false, schema: { type: 'string' }, description: 'the configuration rated 0 (an agent spec)' }],
          responses: { 200: { description: 'The ladder', content: content('Ladder') }, 400: error('Bad anchor') },
        },
      },
      '/api/play': {
        post: {
          summary: 'A new game against agents (the play page): your seat, an agent spec per other seat, optionally a seed and the wonders. The reply has the game\'s id, its token (send it as X-Play-Token) and your first view.',
          description: JSON_RULE,
          security: bearer,
          requestBody: { required: true, content: content('PlayCreate') },
          responses: { 201: { description: '{ id, token, url, view }' }, 400: error('A bad field, named'), 401: error('Missing or wrong API token'), 415: error(NEEDS_JSON) },
        },
        get: { summary: 'The finished games of the play page, the latest first', responses: { 200: { description: '{ games }' } } },
      },
      '/api/play/{id}': {
        get: {
          summary: "Your view of a game (X-Play-Token): your hand with every legal use of each card and its payments, every city as the rules show it, your neighbours' trade prices, the public log with each agent's search statistics, and once it is over the result",
          parameters: [idParam, playToken],
          responses: { 200: { description: 'The view' }, 401: error('No X-Play-Token'), 403: error('Not this game\'s token'), 404: error('No such game (or it expired)') },
        },
      },
      '/api/play/{id}/move': {
        post: {
          summary: 'Your move (a code from the view\'s hand); the agents of the same step choose without seeing it, then the game goes on to your next move. A move that is not legal is refused and changes nothing.',
          description: JSON_RULE,
          parameters: [idParam, playToken],
          requestBody: { required: true, content: content('PlayMove') },
          responses: { 200: { description: 'The view after the move' }, 400: error('Not one of your legal moves now (field: move)'), 401: error('No X-Play-Token'), 403: error('Not this game\'s token'), 404: error('No such game'), 409: error('Another request moved the game first: reload'), 415: error(NEEDS_JSON) },
        },
      },
      '/api/play/{id}/hint': {
        post: {
          summary: 'What an agent would play in your place, from your information only (the same whatever the hidden cards are), with its search statistics',
          description: JSON_RULE,
          parameters: [idParam, playToken],
          requestBody: { required: true, content: content('PlayHint') },
          responses: { 200: { description: '{ agent, move, search, ms }' }, 400: error('A bad agent spec, or not your move'), 401: error('No X-Play-Token'), 403: error('Not this game\'s token'), 404: error('No such game'), 415: error(NEEDS_JSON) },
        },
      },
      '/api/play/{id}/game': { get: { summary: 'A finished game as a sweep\'s game is served (summary and record), for the replay page', parameters: [idParam], responses: { 200: { description: 'The game' }, 404: error('No such game, or not over') } } },
      '/api/play/{id}/game/timeline': { get: { summary: 'A finished game step by step, as a sweep game\'s timeline', parameters: [idParam], responses: { 200: { description: 'The steps', content: content('Timeline') }, 404: error('No such game, or not over') } } },
      '/api/play/{id}/record': { get: { summary: 'A finished game\'s record as a file (`wonderlab replay` checks it)', parameters: [idParam], responses: { 200: { description: 'The record (JSON attachment)' }, 404: error('No such game, or not over') } } },
      '/api/backlog': { get: { summary: 'Unfinished games of running sweeps (for autoscalers)', responses: { 200: { description: '{ backlog }' } } } },
      '/api/workers': {
        get: {
          summary: 'The workers heard from: seen in the last minute (with their game slots), and silent without having stopped (killed, crashed or cut off: capacity lost)',
          responses: { 200: { description: '{ seenWithinSeconds, slots, seen: [{ host, pid, slots, commit?, lastSeen }], silent: [same] }' } },
        },
      },
      '/healthz': { get: { summary: 'The process is up', responses: { 200: { description: 'ok' } } } },
      '/readyz': {
        get: {
          summary: "Redis answers and holds the lab's data",
          responses: {
            200: { description: 'ready; `degraded` lists why the lab takes no new work (Redis out of memory)' },
            503: { description: "not ready: Redis does not answer, or lost the lab's data (`error` says which and what to do)" },
          },
        },
      },
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { 200: { description: 'text/plain; version=0.0.4' } } } },
    },
  };
}
