/**
 * Integration tests of the coordinator's HTTP API against a real Redis, real BullMQ workers and
 * the real coordinator (see harness.ts). Expected values are derived from the shared library
 * (the sweep expansion, playGame, AggregateFold), never pasted from an earlier run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AggregateFold,
  MAX_PLAYERS,
  MINIMAX_LIST,
  PARAMETER_LIST,
  agentCatalog,
  listAgents,
  SCORE_CATEGORIES,
  Sweep,
  checkSweepSpec,
  sweepSize,
  parseSweepSpec,
  placementOf,
  playGame,
  recordFromLog,
  replay,
  summarizeAggregates,
  timeline,
  type GameRecord,
  type GameSummary,
} from '@wonderlab/shared';
import { pino } from 'pino';
import { SEEN_WINDOW_MS, SILENT_KEEP_MS, WorkerRoster, rosterMember } from '@wonderlab/shared/store';
import { TimelineSchema } from '../src/api-schemas.js';
import { api, parseCsv, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';
import { resultCount } from '../../../shared/test/store-support.js';

// ---------------------------------------------------------------------------------------------
// Helpers

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const post = (lab: TestLab, path: string, json?: unknown, token?: string) =>
  api(lab.url, path, { method: 'POST', ...(json !== undefined ? { json } : {}), ...(token ? { token } : {}) });

async function detail(lab: TestLab, id: string): Promise<any> {
  const res = await api(lab.url, `/api/sweeps/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Every game of a sweep through the paged /games route; also returns how many pages it took. */
async function allGames(lab: TestLab, id: string, limit: number): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let pages = 0;
  for (let offset = 0; ; offset += limit) {
    const res = await api(lab.url, `/api/sweeps/${id}/games?offset=${offset}&limit=${limit}`);
    expect(res.status).toBe(200);
    expect(res.body.offset).toBe(offset);
    expect(res.body.limit).toBe(limit);
    pages++;
    items.push(...res.body.items);
    if (offset + limit >= res.body.total) break;
  }
  return { items, pages };
}

/** A summary without what may differ between two plays of the same plan (timing, record). */
function comparable(g: GameSummary): unknown {
  const { log: _log, ...rest } = g;
  return { ...rest, players: rest.players.map(({ decisionMs: _ms, ...p }) => p) };
}

/** A game record without its decisions' wall times (search.ms), the one thing two plays of a plan may differ in. */
function recordWithoutTimes(record: GameRecord): unknown {
  const moves = (step: GameRecord['steps'][number]) => step.moves.map((m) => (m.search ? { ...m, search: { ...m.search, ms: 0 } } : m));
  return JSON.parse(JSON.stringify({ ...record, steps: record.steps.map((s) => ({ ...s, moves: moves(s) })) }));
}

/** Fields whose values come from float sums (Redis HINCRBYFLOAT vs JS addition may differ in the last bits). */
const FLOAT_FIELDS = new Set(['decisionMs', 'iterationsPerSecond', 'mean', 'halfWidth', 'sd']);

/** Deep comparison of aggregates: counts exactly, floats closely; NaN became null in JSON. */
function expectAggregatesEqual(actual: unknown, expected: unknown, path = 'cells', key = ''): void {
  if (typeof expected === 'number') {
    if (Number.isNaN(expected)) {
      expect(actual, path).toBeNull();
    } else if (Number.isInteger(expected) && !FLOAT_FIELDS.has(key)) {
      expect(actual, path).toBe(expected);
    } else {
      expect(typeof actual, path).toBe('number');
      expect(actual as number, path).toBeCloseTo(expected, 6);
    }
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path}.length`).toBe(expected.length);
    expected.forEach((e, i) => expectAggregatesEqual((actual as unknown[])[i], e, `${path}.${i}`, key));
  } else if (expected !== null && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', path).toBe(true);
    expect(Object.keys(actual as object).sort(), `${path} keys`).toEqual(Object.keys(expected).sort());
    for (const [k, e] of Object.entries(expected)) expectAggregatesEqual((actual as Record<string, unknown>)[k], e, `${path}.${k}`, k);
  } else {
    expect(actual, path).toEqual(expected);
  }
}

function metric(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface SseEvent {
  event: string;
  id?: string;
  data: any;
  /** Milliseconds since the request was sent. */
  at: number;
}

/**
 * Reads a Server-Sent Events stream until `stop` says so (or the timeout), then aborts the
 * request. Returns the `sweep` events with their parsed data.
 */
async function readEvents(url: string, stop: (e: SseEvent) => boolean, timeoutMs: number): Promise<{ events: SseEvent[]; status: number; contentType: string | null; timedOut: boolean }> {
  const controller = new AbortController();
  const started = Date.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const events: SseEvent[] = [];
  const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  try {
    if (res.status !== 200 || !res.body) return { events, status: res.status, contentType: res.headers.get('content-type'), timedOut };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (timedOut) break;
        throw err;
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'id') id = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length === 0) continue;
        const e: SseEvent = { event, id, data: JSON.parse(data.join('\n')), at: Date.now() - started };
        events.push(e);
        if (stop(e)) return { events, status: res.status, contentType: res.headers.get('content-type'), timedOut };
      }
    }
    return { events, status: res.status, contentType: res.headers.get('content-type'), timedOut };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

// ---------------------------------------------------------------------------------------------
// 1–3, 7–9: a lab with fast agents

describe('a lab playing a small sweep', () => {
  let lab: TestLab;
  const spec = {
    name: 'e2e',
    players: 3,
    // c=0.4 is the default: it only puts a comma in the agent's label (CSV quoting).
    seats: ['random', { agent: 'mcts', params: { it: [10, 20], c: 0.4 } }, 'rulebased'],
    deals: { count: 4 },
    seating: 'rotate',
  };
  const sweep = new Sweep(parseSweepSpec(spec));
  let id: string;
  let finalDetail: any;
  let games: any[];

  beforeAll(async () => {
    lab = await startLab({ workers: 1, slots: 2 });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('the cluster plays exactly the games `wonderlab play` would, and its aggregates are right', async () => {
    // The spec expands to 2 cells (it=10, it=20) × 4 deals × 3 seat rotations.
    expect(sweep.cells.length).toBe(2);
    expect(sweep.size).toBe(2 * 4 * 3);
    expect(sweep.cells[0].agents[1]).toContain(',');

    const created = await post(lab, '/api/sweeps', spec);
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[a-z0-9]{6,40}$/);
    // url: the sweep's page, as the play page's games answer theirs; api and Location: its API path.
    expect(created.body).toMatchObject({ name: spec.name, games: sweep.size, cells: sweep.cells.length, url: `/sweeps/${created.body.id}`, api: `/api/sweeps/${created.body.id}` });
    expect(created.headers.get('location')).toBe(`/api/sweeps/${created.body.id}`);
    expect((await api(lab.url, created.body.url)).headers.get('content-type')).toMatch(/^text\/html/);
    id = created.body.id;

    await waitForSweep(lab, id, 30_000);
    finalDetail = await detail(lab, id);
    expect(finalDetail.status).toBe('done');
    expect(finalDetail.counts).toEqual({ total: sweep.size, done: sweep.size, failed: 0, queued: 0, pending: 0, skipped: 0 });
    expect(finalDetail.progress).toBe(1);
    // Each agent spec as submitted with the one name it is shown by (the ladder's canonical form).
    expect(finalDetail.names).toEqual({ random: 'random', 'mcts(it=10,c=0.4)': 'mcts(it=10)', rulebased: 'rulebased', 'mcts(it=20,c=0.4)': 'mcts(it=20)' });
    // The wall time a finished sweep took: from its first game to its last.
    const [created_, first, last] = [finalDetail.created, finalDetail.firstGameAt, finalDetail.lastGameAt].map((t: string) => Date.parse(t));
    expect(first).toBeGreaterThanOrEqual(created_);
    expect(last).toBeGreaterThan(first);
    expect(finalDetail.gamesPerSecond).toBeCloseTo((sweep.size - 1) / ((last - first) / 1000), 6);
    expect(finalDetail.gamesPerCell).toBe(sweep.gamesPerCell);
    expect(finalDetail.spec).toEqual(JSON.parse(JSON.stringify(parseSweepSpec(spec))));
    expect(finalDetail.cells.map((c: any) => c.agents)).toEqual(sweep.cells.map((c) => c.agents));

    // Every game, a few at a time.
    const limit = 5;
    const paged = await allGames(lab, id, limit);
    expect(paged.pages).toBe(Math.ceil(sweep.size / limit));
    expect(paged.pages).toBeGreaterThan(1);
    games = paged.items;
    expect(games.length).toBe(sweep.size);
    games.forEach((item, k) => {
      const plan = sweep.game(k);
      expect(item).toMatchObject({ index: k, id: plan.id, cell: plan.cell, state: 'done' });
      expect(item.summary.id).toBe(plan.id);
      expect(item.summary.index).toBe(k);
      expect(item.summary.record).toBeUndefined();
      expect(item.summary.log).toBeUndefined();
    });
    expect(new Set(games.map((g) => g.id)).size).toBe(sweep.size);

    // (a) The stored aggregates equal those folded from the stored summaries.
    const fold = new AggregateFold();
    games.forEach((item, k) => fold.add(item.summary, placementOf(sweep, k)));
    const expected = summarizeAggregates(fold.fields, sweep.cells, sweep.gamesPerCell);
    expect(expected.reduce((s, c) => s + c.games, 0)).toBe(sweep.size);
    expectAggregatesEqual(finalDetail.cells, expected);

    // (b) Each stored game is the game played locally from the same plan.
    for (let k = 0; k < sweep.size; k++) {
      const local = playGame(sweep.game(k));
      const stored = games[k].summary as GameSummary;
      expect(comparable(stored), `game ${k} (${local.id})`).toEqual(comparable(local));
      for (const p of stored.players) {
        expect(typeof p.decisionMs).toBe('number');
        expect(p.decisionMs).toBeGreaterThanOrEqual(0);
      }
    }
  });

  test('paging: out-of-range pages are empty, bad paging is a 400 naming the field', async () => {
    const past = await api(lab.url, `/api/sweeps/${id}/games?offset=${sweep.size}&limit=10`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ total: sweep.size, items: [] });
    for (const [query, field] of [
      ['limit=0', 'query.limit'],
      ['limit=1001', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['offset=abc', 'query.offset'],
    ]) {
      const res = await api(lab.url, `/api/sweeps/${id}/games?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }
  });

  test('the detail pages its cells, the list its sweeps; bad pages are 400s naming the field', async () => {
    const full = await detail(lab, id);
    expect(full).toMatchObject({ cellCount: 2, cellOffset: 0 });
    expect(full.cells).toHaveLength(2);
    const second = await api(lab.url, `/api/sweeps/${id}?cellOffset=1&cellLimit=1`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ cellCount: 2, cellOffset: 1, counts: full.counts });
    expect(second.body.cells).toEqual([full.cells[1]]);
    expect((await api(lab.url, `/api/sweeps/${id}?cellOffset=2`)).body.cells).toEqual([]);
    for (const [query, field] of [
      ['cellLimit=251', 'query.cellLimit'],
      ['cellOffset=-1', 'query.cellOffset'],
      ['cells=all', 'query'],
    ]) {
      const res = await api(lab.url, `/api/sweeps/${id}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }

    // A second sweep: the list is newest first, a page at a time.
    const other = await post(lab, '/api/sweeps', { name: 'second', players: 3, seats: ['random', 'random', 'random'], deals: { count: 1 } });
    expect(other.status).toBe(201);
    const all = await api(lab.url, '/api/sweeps');
    expect(all.body.map((x: any) => x.id)).toEqual([other.body.id, id]);
    expect((await api(lab.url, '/api/sweeps?limit=1')).body.map((x: any) => x.id)).toEqual([other.body.id]);
    expect((await api(lab.url, '/api/sweeps?offset=1&limit=1')).body.map((x: any) => x.id)).toEqual([id]);
    expect((await api(lab.url, '/api/sweeps?offset=2')).body).toEqual([]);
    const bad = await api(lab.url, '/api/sweeps?limit=1001');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('query.limit');
    await waitForSweep(lab, other.body.id);
  });

  test('one game: its summary and full record; 404 for a game that does not exist; 400 for a malformed id', async () => {
    const k = sweep.gamesPerCell + 1; // a game of the second cell
    const plan = sweep.game(k);
    const res = await api(lab.url, `/api/sweeps/${id}/games/${plan.id}`);
    expect(res.status).toBe(200);
    const { record, ...summary } = res.body;
    expect(summary).toEqual(games[k].summary);
    expect(Array.isArray(record.steps)).toBe(true);
    expect(record.steps.length).toBeGreaterThan(0);
    expect(record.result.winners).toEqual(summary.winners);
    expect(record.result.decidedBy).toBe(summary.decidedBy);
    expect(record.result.ranks).toEqual(summary.players.map((p: any) => p.rank));
    expect(record.result.scores).toEqual(summary.players.map((p: any) => p.score));
    // The record is the one a local play records (decision times aside), and it replays.
    expect(recordWithoutTimes(record)).toEqual(recordWithoutTimes(recordFromLog(playGame(plan, { record: true }).log!)));
    expect(replay(record).differences).toEqual([]);

    // A well-formed id of a cell the sweep does not have.
    const unknown = `c${sweep.cells.length}-d0-o0`;
    const missing = await api(lab.url, `/api/sweeps/${id}/games/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain(unknown);

    const malformed = await api(lab.url, `/api/sweeps/${id}/games/not-a-game`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('params.gameId');

    const noSweep = await api(lab.url, `/api/sweeps/zzzzzzzzzz/games/${plan.id}`);
    expect(noSweep.status).toBe(404);
    const badSweep = await api(lab.url, `/api/sweeps/NOT_AN_ID!/games/${plan.id}`);
    expect(badSweep.status).toBe(400);
    expect(badSweep.body.field).toBe('params.id');
  });

  test("the timeline: each step's moves, an MCTS move with its search, and every seat's running score, as documented", async () => {
    const k = sweep.gamesPerCell + 1;
    const plan = sweep.game(k);
    const res = await api(lab.url, `/api/sweeps/${id}/games/${plan.id}/timeline`);
    expect(res.status).toBe(200);
    // Every field is in the documented schema (parsing drops what it does not know).
    expect(TimelineSchema.parse(res.body)).toEqual(res.body);
    const { record, players } = (await api(lab.url, `/api/sweeps/${id}/games/${plan.id}`)).body;
    const steps = res.body.steps as any[];
    expect(steps).toEqual(JSON.parse(JSON.stringify(timeline(record))));
    expect(steps.at(-1).scores).toEqual(record.result.scores);
    for (const step of steps) expect(step.scores).toHaveLength(players.length);
    let searched = 0;
    for (const step of steps) {
      for (const m of step.moves) {
        if (!players[m.seat].agent.startsWith('mcts')) {
          expect(m.search, `step ${step.age}/${step.turn}, seat ${m.seat} (${players[m.seat].agent})`).toBeUndefined();
          continue;
        }
        if (!m.search) continue; // a forced move
        searched++;
        const visits = m.search.moves.map((x: any) => x.visits);
        expect(visits).toEqual([...visits].sort((a: number, b: number) => b - a));
        expect(visits.reduce((a: number, b: number) => a + b, 0)).toBeLessThanOrEqual(m.search.iterations);
        expect(m.search.moves.some((x: any) => x.move.card === m.card && x.move.action === m.action)).toBe(true);
      }
    }
    expect(searched, 'the MCTS seat explained its moves').toBeGreaterThan(10);

    const doc = (await api(lab.url, '/api/openapi.json')).body;
    const route = doc.paths['/api/sweeps/{id}/games/{gameId}/timeline'].get;
    expect(route.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Timeline' });
    const step = doc.components.schemas.Timeline.properties.steps.items.properties;
    expect(Object.keys(step.scores.items.properties).sort()).toEqual([...SCORE_CATEGORIES, 'total'].sort());
    const search = step.moves.items.properties.search.properties;
    expect(Object.keys(search)).toEqual(['iterations', 'ms', 'carried', 'depth', 'network', 'moves']);
    expect(Object.keys(search.moves.items.properties)).toEqual(['move', 'visits', 'value', 'votes']);
  });

  test('export as CSV: a header and one row per seat per game, with the stored numbers', async () => {
    const res = await fetch(`${lab.url}/api/sweeps/${id}/export?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain(`${id}.csv`);
    const rows = parseCsv(await res.text());
    const [header, ...body] = rows;
    for (const column of ['sweep', 'game', 'cell', 'seat', 'agent', 'vp', 'coins', 'stages', 'winner', 'rank', ...SCORE_CATEGORIES.map((c) => `vp_${c}`)]) {
      expect(header).toContain(column);
    }
    expect(body.length).toBe(sweep.size * spec.players);
    for (const row of body) expect(row.length).toBe(header.length);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    expect(new Set(body.map((r) => col(r, 'sweep')))).toEqual(new Set([id]));
    expect(new Set(body.map((r) => col(r, 'game')))).toEqual(new Set(games.map((g) => g.id)));

    // One game, seat by seat.
    const g: GameSummary = games[sweep.gamesPerCell + 2].summary;
    const gameRows = body.filter((r) => col(r, 'game') === g.id);
    expect(gameRows.length).toBe(spec.players);
    for (const p of g.players) {
      const row = gameRows.find((r) => Number(col(r, 'seat')) === p.seat)!;
      expect(row, `seat ${p.seat}`).toBeDefined();
      expect(Number(col(row, 'index'))).toBe(g.index);
      expect(Number(col(row, 'cell'))).toBe(sweep.game(g.index).cell);
      expect(Number(col(row, 'seed'))).toBe(g.seed);
      expect(Number(col(row, 'deal'))).toBe(g.deal);
      expect(Number(col(row, 'seating'))).toBe(g.seating);
      expect(col(row, 'decided_by')).toBe(g.decidedBy);
      expect(col(row, 'agent')).toBe(p.agent);
      expect(col(row, 'board')).toBe(p.city);
      expect(col(row, 'side')).toBe(p.side);
      expect(Number(col(row, 'vp'))).toBe(p.score.total);
      for (const c of SCORE_CATEGORIES) expect(Number(col(row, `vp_${c}`)), c).toBe(p.score[c]);
      expect(Number(col(row, 'coins'))).toBe(p.coins);
      expect(Number(col(row, 'stages'))).toBe(p.stages);
      expect(Number(col(row, 'winner'))).toBe(p.winner ? 1 : 0);
      expect(Number(col(row, 'rank'))).toBe(p.rank);
      expect(Number(col(row, 'decisions'))).toBe(p.decisions);
      expect(Number(col(row, 'decision_ms'))).toBeCloseTo(p.decisionMs, 2);
      expect(Number(col(row, 'iterations'))).toBe(p.iterations);
      expect(Number(col(row, 'cut_short'))).toBe(p.cutShort);
      expect(col(row, 'config')).toBe(p.canonical);
      expect(col(row, 'forfeit')).toBe('');
    }
  });

  test('export as JSONL: one summary per line; an unknown format is a 400 on query.format', async () => {
    const res = await fetch(`${lab.url}/api/sweeps/${id}/export?format=jsonl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text()).split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(sweep.size);
    const parsed = lines.map((l) => JSON.parse(l));
    parsed.forEach((line, k) => {
      expect(line).toEqual({ sweep: id, cell: sweep.game(k).cell, ...games[k].summary });
    });

    const xml = await api(lab.url, `/api/sweeps/${id}/export?format=xml`);
    expect(xml.status).toBe(400);
    expect(xml.body.field).toBe('query.format');

    const none = await api(lab.url, '/api/sweeps/zzzzzzzzzz/export?format=csv');
    expect(none.status).toBe(404);
  });

  test('ratings: the head-to-head matrix and Bradley–Terry ratings of every configuration, as in the detail; an anchor at 0; bad queries are 400s', async () => {
    const res = await api(lab.url, `/api/sweeps/${id}/ratings`);
    expect(res.status).toBe(200);
    const { headToHead, ratings } = res.body;
    // random, mcts(it=10,c=0.4), mcts(it=20,c=0.4), rulebased.
    expect(headToHead.configs.length).toBe(4);
    expect(ratings.ratings.map((r: any) => r.config).sort()).toEqual([...headToHead.configs].sort());
    expect(ratings.games).toBe(sweep.size);
    for (const r of ratings.ratings) {
      expect(r.low).toBeLessThan(r.elo);
      expect(r.high).toBeGreaterThan(r.elo);
    }
    // The same as the detail carries, computed from the same aggregates.
    const d = await detail(lab, id);
    expect(d.ratings).toEqual(ratings);
    expect(d.headToHead).toEqual(headToHead);
    // Every seat pair of every game with two different configurations is one comparison.
    const pairs = headToHead.rows.flat().filter(Boolean).reduce((s: number, c: any) => s + c.games, 0) / 2;
    expect(pairs).toBe(sweep.size * 3);
    const anchored = await api(lab.url, `/api/sweeps/${id}/ratings?anchor=rulebased`);
    expect(anchored.status).toBe(200);
    expect(anchored.body.ratings.anchor).toBe('rulebased');
    expect(anchored.body.ratings.ratings.find((r: any) => r.config === 'rulebased')).toMatchObject({ elo: 0, low: 0, high: 0 });
    const bad = await api(lab.url, `/api/sweeps/${id}/ratings?anchor=nobody`);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('query.anchor');
    expect((await api(lab.url, `/api/sweeps/${id}/ratings?x=1`)).status).toBe(400);
    expect((await api(lab.url, '/api/sweeps/zzzzzzzzzz/ratings')).status).toBe(404);
  });

  test('provenance: the code version that created the sweep, its times, CPU time and the workers that played it', async () => {
    const p = finalDetail.provenance;
    const root = new URL('../../../', import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(p.code).toMatchObject({ package: pkg.name, version: pkg.version, node: process.version });
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
    if (head.status === 0) expect(p.code.commit).toBe(head.stdout.trim());
    const [created, started, finished, last] = [p.created, p.startedAt, p.finishedAt, finalDetail.lastGameAt].map((t: string) => Date.parse(t));
    expect(started).toBeGreaterThanOrEqual(created);
    expect(finished).toBeGreaterThanOrEqual(last);
    expect(p.wallSeconds).toBeCloseTo((finished - started) / 1000, 6);
    expect(p.activeSeconds).toBeGreaterThan(0);
    expect(p.activeSeconds).toBeLessThanOrEqual((finished - created) / 1000 + 1e-9);
    expect(p.cpuSeconds).toBeGreaterThan(0);
    // One in-process worker played every game, each counted once.
    expect(p.workers).toEqual([{ host: hostname(), pid: process.pid, version: pkg.version, ...(p.code.commit ? { commit: p.code.commit } : {}), ...(p.code.dirty !== undefined ? { dirty: p.code.dirty } : {}), cpu: cpus()[0].model.trim(), cores: cpus().length, games: sweep.size }]);
  });

  test('summary: a row per cell and agent with the swept parameters as columns, as JSON records and as CSV', async () => {
    const json = await api(lab.url, `/api/sweeps/${id}/summary`);
    expect(json.status).toBe(200);
    const rows = json.body as any[];
    expect(rows.length).toBe(finalDetail.cells.reduce((s: number, c: any) => s + c.labels.length, 0));
    for (const cell of finalDetail.cells) {
      for (const l of cell.labels) {
        const row = rows.find((r) => r.cell === cell.index && r.agent === l.label);
        expect(row).toMatchObject({ sweep: id, 'seats.1.it': cell.swept['seats.1.it'], games: l.games, wins: l.wins, win_rate: l.winRate, ci_low: l.wilson.low, ci_high: l.wilson.high, vp_mean: l.vp.mean, vp_sd: l.vp.sd });
        expect(row.vp_mean_ci_low).toBeCloseTo(l.vp.mean - l.vpMeanHalfWidth, 9);
        // The display name beside the spec as submitted, last among the columns.
        expect(row.config).toBe(l.config);
      }
    }
    const csv = await fetch(`${lab.url}/api/sweeps/${id}/summary?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    const header = lines[0].split(',');
    expect(header.slice(0, 8)).toEqual(['sweep', 'cell', 'seats.1.it', 'agent', 'seats', 'games', 'wins', 'win_rate']);
    expect(header).toEqual(expect.arrayContaining(['ci_low', 'ci_high', 'vp_mean', 'vp_sd']));
    expect(lines.length).toBe(rows.length + 1);
    // Every CSV value is the JSON's (agents with a comma in their spec are quoted).
    const parsed = lines.slice(1).map((line) => [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)].slice(0, header.length).map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')));
    parsed.forEach((cols, i) => header.forEach((h, j) => expect(cols[j], `row ${i} ${h}`).toBe(rows[i][h] === null ? '' : String(rows[i][h]))));
    expect((await api(lab.url, `/api/sweeps/${id}/summary?format=xml`)).body.field).toBe('query.format');
  });

  test('retry-failed on a sweep without failures changes nothing', async () => {
    const before = await detail(lab, id);
    const res = await post(lab, `/api/sweeps/${id}/retry-failed`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.body.status).toBe('done');
    expect(res.body.counts).toEqual(before.counts);
    await sleep(200);
    const after = await detail(lab, id);
    expect(after.status).toBe('done');
    expect(after.counts).toEqual(before.counts);
    expect(await resultCount(lab.store, id)).toBe(sweep.size);
  });

  test('server-sent events: a sweep event at once, then news as games finish, up to done', async () => {
    const sseSpec = { name: 'sse', players: 3, seats: ['mcts(it=100)', 'rulebased', 'random'], deals: { count: 8 } };
    const total = sweepSize(parseSweepSpec(sseSpec)).total;
    const created = await post(lab, '/api/sweeps', sseSpec);
    expect(created.status).toBe(201);
    const sseId = created.body.id;
    const { events, status, contentType, timedOut } = await readEvents(
      `${lab.url}/api/sweeps/${sseId}/events`,
      (e) => e.data.counts.done + e.data.counts.failed >= total,
      30_000,
    );
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(timedOut).toBe(false);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.every((e) => e.event === 'sweep' && e.data.id === sseId)).toBe(true);
    // The first event comes at once, before the sweep is over.
    expect(events[0].at).toBeLessThan(1500);
    expect(events[0].data.counts.done).toBeLessThan(total);
    // Later events carry more finished games; done never goes back.
    expect(events.some((e) => e.data.counts.done > events[0].data.counts.done)).toBe(true);
    for (let i = 1; i < events.length; i++) expect(events[i].data.counts.done).toBeGreaterThanOrEqual(events[i - 1].data.counts.done);
    for (const e of events) expect(e.id).toBe(String(e.data.counts.done + e.data.counts.failed));
    // Each event is the overview and its version (what changed), not the megabytes of the detail.
    for (const e of events) expect(e.data.version).toBe(e.data.counts.done + e.data.counts.failed + e.data.counts.skipped);
    expect(events.every((e) => e.data.cells === undefined)).toBe(true);
    const last = events.at(-1)!.data;
    expect(last.counts).toMatchObject({ total, done: total, failed: 0 });
    expect((await detail(lab, sseId)).cells[0].games).toBe(total);

    const unknown = await api(lab.url, '/api/sweeps/zzzzzzzzzz/events');
    expect(unknown.status).toBe(404);
    await waitForSweep(lab, sseId, 30_000);
  });

  test('health, readiness, metrics, backlog, OpenAPI and the spec schema', async () => {
    expect((await api(lab.url, '/healthz')).status).toBe(200);
    const ready = await api(lab.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.ok).toBe(true);

    // Every game this lab played, counted from its sweeps.
    const sweeps = (await api(lab.url, '/api/sweeps')).body as any[];
    expect(sweeps.length).toBeGreaterThanOrEqual(1);
    const played = sweeps.reduce((s, w) => s + w.counts.done, 0);
    expect(played).toBeGreaterThanOrEqual(sweep.size);

    const metrics = await fetch(`${lab.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(metric(text, 'wonderlab_games_done_total')).toBeGreaterThanOrEqual(played);
    expect(metric(text, 'wonderlab_queue_jobs{state="waiting"}')).toBeTypeOf('number');
    expect(metric(text, 'wonderlab_queue_jobs{state="waiting"}')).toBe(0);
    const backlogMetric = metric(text, 'wonderlab_backlog_games');
    expect(backlogMetric).toBeTypeOf('number');
    expect(metric(text, 'wonderlab_sweeps{status="done"}')).toBe(sweeps.filter((s) => s.status === 'done').length);

    // prom-client's process series, and the HTTP histogram by route pattern and status.
    expect(metric(text, 'process_resident_memory_bytes')).toBeGreaterThan(10e6);
    expect(metric(text, 'nodejs_eventloop_lag_seconds')).toBeTypeOf('number');
    expect(metric(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(metric(text, 'wonderlab_games_failed_total')).toBe(0);
    expect(metric(text, 'wonderlab_redis_up')).toBe(1);
    expect(metric(text, 'http_request_duration_seconds_count{method="GET",route="/api/sweeps/:id",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'http_request_duration_seconds_count{method="POST",route="/api/sweeps",status="201"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/sweeps/:id",status="200"}');
    // Paths no route matched share one label, whatever they are.
    await api(lab.url, '/api/nothing/here');
    await api(lab.url, '/api/nothing/else');
    const after = await (await fetch(`${lab.url}/metrics`)).text();
    expect(metric(after, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(2);
    expect(after).not.toContain('/api/nothing');

    const backlog = await api(lab.url, '/api/backlog');
    expect(backlog.status).toBe(200);
    expect(backlog.body).toEqual({ backlog: expect.any(Number) });
    // Every sweep of this lab is done: nothing is left to play.
    expect(backlog.body.backlog).toBe(0);
    expect(backlogMetric).toBe(backlog.body.backlog);

    const doc = await api(lab.url, '/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/api/sweeps']).toHaveProperty('post');
    expect(doc.body.paths['/api/sweeps']).toHaveProperty('get');
    expect(doc.body.paths['/api/sweeps/{id}/events']).toHaveProperty('get');
    for (const a of ['cancel', 'pause', 'resume', 'retry-failed']) expect(doc.body.paths).toHaveProperty([`/api/sweeps/{id}/${a}`]);
    expect(doc.body.components.schemas.SweepSpec.properties.seats).toBeDefined();
    expect(doc.body.components.schemas.SweepSpec.properties.seats.type).toBe('array');

    const schema = await api(lab.url, '/api/schema/sweep-spec.json');
    expect(schema.status).toBe(200);
    expect(schema.body.type).toBe('object');
    expect(schema.body.required).toContain('name');
    expect(schema.body.required).toContain('seats');
    // Fields with defaults are not required of the input.
    expect(schema.body.required).not.toContain('keepRecords');
    expect(schema.body.properties.players.maximum).toBe(MAX_PLAYERS);

    // The agents' parameter table is the one source of the MCTS options: the catalog route, the
    // OpenAPI example and the seat params' properties all carry its keys, ranges and meanings.
    const agents = await api(lab.url, '/api/schema/agents.json');
    expect(agents.status).toBe(200);
    // The catalogue, and the outside agents installed (AGENTS_DIR: the repository's agents/ here).
    expect(agents.body).toEqual({ ...agentCatalog(), outside: listAgents().agents.map(({ manifest: m }) => ({ spec: `ext(name=${m.name})`, name: m.name, version: m.version, summary: m.summary, players: m.players, params: m.params })) });
    expect(agents.body.outside.map((a: any) => a.spec)).toEqual(expect.arrayContaining(['ext(name=py-random)', 'ext(name=node-first)']));
    expect(agents.body.parameters.map((p: any) => p.key)).toEqual(PARAMETER_LIST.map((d) => d.key));
    expect(doc.body.paths['/api/schema/agents.json'].get.responses[200].content['application/json'].example).toEqual(agentCatalog());
    const seatObject = schema.body.properties.seats.items.anyOf.find((x: any) => x.type === 'object');
    // The seat's options are the MCTS table's, then the minimax table's keys MCTS does not have.
    const minimaxOnly = MINIMAX_LIST.filter((d) => !PARAMETER_LIST.some((m) => m.key === d.key));
    expect(Object.keys(seatObject.properties.params.properties)).toEqual([...PARAMETER_LIST, ...minimaxOnly].map((d) => d.key));
    for (const def of [...PARAMETER_LIST, ...minimaxOnly]) expect(seatObject.properties.params.properties[def.key].description).toContain(def.meaning);
    // Each seat's options are checked against its own kind's table.
    const minimaxBad = await post(lab, '/api/sweeps/validate', { name: 'x', players: 3, seats: [{ agent: 'minimax', params: { depth: [2, 20] } }, 'random', 'random'], deals: { count: 1 } });
    expect(minimaxBad.status).toBe(400);
    expect(minimaxBad.body.field).toBe('seats.0');
    expect(minimaxBad.body.error).toContain("depth: expected an integer from 1 to 12, got '20'");
    const mctsKeep = await post(lab, '/api/sweeps/validate', { name: 'x', players: 3, seats: [{ agent: 'mcts', params: { keep: 3 } }, 'random', 'random'], deals: { count: 1 } });
    expect(mctsKeep.status).toBe(400);
    expect(mctsKeep.body.error).toContain("unknown parameter 'keep'");
    const minimaxTime = await post(lab, '/api/sweeps/validate', { name: 'x', players: 3, seats: ['minimax(time=600)', 'random', 'random'], deals: { count: 1 } });
    expect(minimaxTime.status).toBe(400);
    expect(minimaxTime.body.error).toContain('time=600 seconds per move, over this lab\'s limit');
    const badKey = await post(lab, '/api/sweeps/validate', { name: 'x', players: 3, seats: [{ agent: 'mcts', params: { nonsense: 1 } }, 'random', 'random'], deals: { count: 1 } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.field).toBe('seats.0.params.nonsense');
    expect(badKey.body.error).toMatch(/^seats\.0\.params\.nonsense: unknown key 'nonsense' \(known: it, time, /);
    const badValue = await post(lab, '/api/sweeps/validate', { name: 'x', players: 3, seats: [{ agent: 'mcts', params: { arms: ['all', 'some'] } }, 'random', 'random'], deals: { count: 1 } });
    expect(badValue.status).toBe(400);
    expect(badValue.body.field).toBe('seats.0');
    expect(badValue.body.error).toContain("arms: expected one of all | grouped, got 'some'");

    const nowhere = await api(lab.url, '/api/no-such-route');
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof nowhere.body.error).toBe('string');
  });

  test('the workers heard from: the running one seen with its slots, one silent without stopping counted as lost capacity', async () => {
    const workers = async () => (await api(lab.url, '/api/workers')).body;
    // It reported itself when it started.
    expect(await workers()).toMatchObject({ seenWithinSeconds: SEEN_WINDOW_MS / 1000, slots: 2, seen: [{ host: hostname(), pid: process.pid, slots: 2 }], silent: [] });
    expect((await workers()).seen[0].lastSeen).toBeLessThanOrEqual(Date.now());
    let text = await (await fetch(`${lab.url}/metrics`)).text();
    expect([metric(text, 'wonderlab_workers_seen'), metric(text, 'wonderlab_worker_slots_seen'), metric(text, 'wonderlab_workers_silent')]).toEqual([1, 2, 0]);
    // A worker last heard two minutes ago, that never said it stopped: killed, crashed or cut off.
    const roster = new WorkerRoster(lab.redis, lab.store.keys);
    const lost = { host: 'worker-7f3a', pid: 1, slots: 4, commit: 'abc123' };
    const lastHeard = Date.now() - 2 * SEEN_WINDOW_MS;
    await roster.report(lost, lastHeard);
    expect(await workers()).toMatchObject({ slots: 2, seen: [{ pid: process.pid }], silent: [{ ...lost, lastSeen: lastHeard }] });
    text = await (await fetch(`${lab.url}/metrics`)).text();
    expect([metric(text, 'wonderlab_workers_seen'), metric(text, 'wonderlab_worker_slots_seen'), metric(text, 'wonderlab_workers_silent')]).toEqual([1, 2, 1]);
    // Back (the same host and process): seen again, no longer lost; and a report drops what went
    // silent over an hour ago, so the set stays the fleet's size. Stopped cleanly: neither.
    const ancient = { host: 'worker-0ld', pid: 1, slots: 1 };
    await roster.report(ancient, Date.now() - 2 * SILENT_KEEP_MS);
    await roster.report(lost);
    expect(await lab.redis.zscore(lab.store.keys.roster, rosterMember(ancient))).toBeNull();
    expect((await workers()).silent).toEqual([]);
    await roster.leave(lost);
    expect((await workers()).seen.map((w: { pid: number }) => w.pid)).toEqual([process.pid]);
    expect((await api(lab.url, '/api/openapi.json')).body.paths['/api/workers']).toHaveProperty('get');
  });
});

// ---------------------------------------------------------------------------------------------
// 4: validation

describe('validation of submitted specs', () => {
  const maxGames = 100;
  const limits = { MAX_CELLS: 50, MAX_MOVE_ITERATIONS: 20_000, MAX_MOVE_SECONDS: 30, MAX_CPU_HOURS: 0.01, MAX_BODY_BYTES: 8192, MAX_JSON_DEPTH: 8 };
  let lab: TestLab;
  const base = { name: 'v', players: 3, seats: ['random', 'random', 'rulebased'], deals: { count: 2 } };

  beforeAll(async () => {
    lab = await startLab({ workers: 0, maxGames, env: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, String(v)])) });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('a malformed spec is a 400 naming the bad field, and nothing is stored', async () => {
    const cases: [string, unknown, string][] = [
      ['missing name', { players: 3, seats: base.seats, deals: base.deals }, 'name'],
      ['empty name', { ...base, name: '  ' }, 'name'],
      ['9 players', { ...base, players: MAX_PLAYERS + 2 }, 'players'],
      ['seats ≠ players', { ...base, players: 4 }, 'seats'],
      ['bad agent at seat 1', { ...base, seats: ['random', 'mcts(it=abc)', 'rulebased'] }, 'seats.1'],
      ['bad swept value at seat 2', { ...base, seats: ['random', 'random', { agent: 'mcts', params: { it: [10, 'x'] } }] }, 'seats.2.params.it.1'],
      ['a number written as text', { ...base, seats: [{ agent: 'mcts', params: { c: '0.4' } }, 'random', 'random'] }, 'seats.0.params.c'],
      ['unknown top-level key', { ...base, colour: 'blue' }, 'colour'],
      ['thesis wonders with 4 players', { ...base, players: 4, seats: [...base.seats, 'random'], wonders: { mode: 'thesis' } }, 'wonders.mode'],
      ['deals.count 0', { ...base, deals: { count: 0 } }, 'deals.count'],
    ];
    for (const [what, spec, field] of cases) {
      const res = await post(lab, '/api/sweeps', spec);
      expect(res.status, what).toBe(400);
      expect(res.body.field, what).toBe(field);
      expect(typeof res.body.error, what).toBe('string');
      expect(res.body.error.startsWith(`${field}:`), `${what}: ${res.body.error}`).toBe(true);
    }
    // The unknown key is named, before the required key it left missing, with the one it was close to.
    const unknown = await post(lab, '/api/sweeps', { ...base, colour: 'blue' });
    expect(unknown.body.error).toContain("unknown key 'colour'");
    const { deals, ...noDeals } = base;
    const typo = await post(lab, '/api/sweeps', { ...noDeals, deal: deals });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ field: 'deal', error: expect.stringMatching(/^deal: unknown key 'deal' \(did you mean 'deals'\? known: name, players, seats, /) });
    // An unknown MCTS option lists every option, as the CLI does.
    const option = await post(lab, '/api/sweeps', { ...base, seats: [{ agent: 'mcts', params: { iterations: 5 } }, 'random', 'random'] });
    expect(option.status).toBe(400);
    expect(option.body.field).toBe('seats.0.params.iterations');
    expect(option.body.error).toContain("unknown key 'iterations' (known: it, time, depth, c, reward,");
    // A numeric option given as text is refused naming it, never read as the number.
    const text = await post(lab, '/api/sweeps', { ...base, seats: [{ agent: 'mcts', params: { c: '0.4' } }, 'random', 'random'] });
    expect(text.body.error).toBe('seats.0.params.c: expected a number from 0 to 100, or a list of such values; got "0.4"');
  });

  test('a spec with several bad fields names every one of them in problems, the first as field and error', async () => {
    const spec = { ...base, seats: [{ agent: 'mcts', params: { c: 'abc' } }, 'mcts(it=zero)', 'rulebased'], deals: { count: 0 } };
    for (const path of ['/api/sweeps', '/api/sweeps/validate']) {
      const res = await post(lab, path, spec);
      expect(res.status).toBe(400);
      expect(res.body.problems.map((p: any) => p.field)).toEqual(['seats.0.params.c', 'deals.count', 'seats.1']);
      expect(res.body.problems[0]).toEqual({ field: res.body.field, error: res.body.error });
      for (const p of res.body.problems) expect(p.error.startsWith(`${p.field}: `), p.error).toBe(true);
    }
    // One problem: no list.
    expect((await post(lab, '/api/sweeps/validate', { ...base, deals: { count: 0 } })).body.problems).toBeUndefined();
  });

  test('bodies that are not a JSON object are a 400 on (body); JSON sent as text a 415', async () => {
    const bad = await api(lab.url, '/api/sweeps', { method: 'POST', body: '{"name": "x", ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('(body)');
    const array = await post(lab, '/api/sweeps', [base]);
    expect(array.status).toBe(400);
    expect(array.body.field).toBe('(body)');
    // A JSON text sent as another type is refused for its type (see security.test.ts), not read.
    const text = await api(lab.url, '/api/sweeps', { method: 'POST', body: JSON.stringify(base), headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.field).toBe('headers.content-type');
  });

  test('a sweep over MAX_GAMES is a 400 on (games) that names the product and the limit', async () => {
    for (const [spec, product] of [
      [{ ...base, deals: { count: 1000 } }, '1,000 deals (deals.count) = 1,000 games'],
      // Under the limit in deals, over it in games: 34 deals × 3 seat rotations.
      [{ ...base, deals: { count: 34 }, seating: 'rotate' }, '34 deals (deals.count) × 3 seat orders (seating) = 102 games'],
    ] as const) {
      const { total } = sweepSize(parseSweepSpec(spec));
      expect(total).toBeGreaterThan(maxGames);
      const res = await post(lab, '/api/sweeps', spec);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('(games)');
      expect(res.body.error).toContain(product);
      expect(res.body.error).toContain(`limit of ${maxGames} games per sweep (MAX_GAMES)`);
    }
  });

  test('cells, per-move budget and estimated cost over the limits are 400s naming field, value and limit; validate answers the same', async () => {
    const grid = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const cases: [string, unknown, string, string[]][] = [
      ['1000 × 1000 cells', { ...base, seats: [{ agent: 'mcts', params: { it: grid(1000), depth: grid(1000).map((d) => (d % 100) + 1) } }, 'random', 'random'] }, '(cells)', ['1,000 values (seats.0.params.it) × 1,000 values (seats.0.params.depth) = 1,000,000 cells', `limit of ${limits.MAX_CELLS} cells per sweep (MAX_CELLS)`]],
      ['iterations per move', { ...base, seats: ['random', 'mcts(it=10000000,time=86400)', 'random'] }, 'seats.1', ['10,000,000', `limit of ${limits.MAX_MOVE_ITERATIONS.toLocaleString('en-US')} (MAX_MOVE_ITERATIONS)`]],
      ['seconds per move', { ...base, seats: [{ agent: 'mcts', params: { it: 100, time: 86400 } }, 'random', 'random'] }, 'seats.0.params.time', ['time=86400', `limit of ${limits.MAX_MOVE_SECONDS} (MAX_MOVE_SECONDS)`]],
      ['CPU-hours', { ...base, seats: ['mcts:1000,0', 'mcts:1000,0', 'random'], deals: { count: 100 } }, '(cost)', ['100 games are estimated at', `limit of ${limits.MAX_CPU_HOURS} (MAX_CPU_HOURS)`]],
      ['a fixed set naming a board twice', { ...base, wonders: { mode: 'fixed', sets: [['Rhodos', 'Giza', 'Rhodes']] } }, 'wonders.sets.0.2', ["'Rhodes' is the same board as wonders.sets.0.0"]],
      ['an unknown board', { ...base, wonders: { mode: 'fixed', sets: [['Rhodos', 'Giza', 'Atlantis']] } }, 'wonders.sets.0.2', ["unknown wonder board 'Atlantis'"]],
      ['a set of two boards', { ...base, wonders: { mode: 'fixed', sets: [['Rhodos', 'Giza']] } }, 'wonders.sets.0.2', ['expected 3 boards (players), got 2']],
    ];
    for (const [what, spec, field, parts] of cases) {
      for (const route of ['/api/sweeps/validate', '/api/sweeps']) {
        const res = await post(lab, route, spec);
        expect(res.status, `${what} at ${route}`).toBe(400);
        expect(res.body.field, what).toBe(field);
        for (const part of parts) expect(res.body.error, what).toContain(part);
      }
    }
  });

  test('validate gives the counts and the estimated cost of a spec within the limits', async () => {
    const spec = { ...base, seats: ['mcts:100', 'random', 'random'] };
    const res = await post(lab, '/api/sweeps/validate', spec);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, games: 2, cells: 1, gamesPerCell: 2 });
    const expected = checkSweepSpec(spec, { maxCells: 1e9, maxGames: 1e9, maxMoveIterations: 1e9, maxMoveSeconds: 1e9, maxGameSeconds: 1e9, maxCpuHours: 1e9 }).cost!;
    expect(res.body.estimate.cpuHours).toBeCloseTo(expected.cpuHours, 3);
    expect(res.body.estimate.maxGameSeconds).toBeCloseTo(expected.maxGameSeconds, 3);
    expect(res.body.estimate.cpuHours).toBeGreaterThan(0);
  });

  test('a body over MAX_BODY_BYTES or nested deeper than MAX_JSON_DEPTH is a 400 on (body) naming size and limit', async () => {
    const huge = JSON.stringify({ ...base, name: 'x'.repeat(limits.MAX_BODY_BYTES) });
    for (const route of ['/api/sweeps', '/api/sweeps/validate']) {
      const big = await api(lab.url, route, { method: 'POST', body: huge, headers: { 'content-type': 'application/json' } });
      expect(big.status, route).toBe(400);
      expect(big.body.field).toBe('(body)');
      expect(big.body.error).toContain(`the body has ${Buffer.byteLength(huge)} bytes, over this lab's limit of ${limits.MAX_BODY_BYTES} bytes (MAX_BODY_BYTES)`);
    }
    // Deep: within the size limit, past the depth limit (brackets inside strings do not count).
    const deep = `{"name":"[[[[[[[[[[","x":${'['.repeat(limits.MAX_JSON_DEPTH)}${']'.repeat(limits.MAX_JSON_DEPTH)}}`;
    const res = await api(lab.url, '/api/sweeps/validate', { method: 'POST', body: deep, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('(body)');
    expect(res.body.error).toContain(`${limits.MAX_JSON_DEPTH + 1} levels deep (or more), over this lab's limit of ${limits.MAX_JSON_DEPTH} (MAX_JSON_DEPTH)`);
    // Exactly at the limit, it parses (and is then refused as a spec).
    const atLimit = `{"name":"[[[[[[[[[[","x":${'['.repeat(limits.MAX_JSON_DEPTH - 1)}${']'.repeat(limits.MAX_JSON_DEPTH - 1)}}`;
    const ok = await api(lab.url, '/api/sweeps/validate', { method: 'POST', body: atLimit, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(400);
    expect(ok.body.field).not.toBe('(body)');
  });

  test('after all those, no sweep was stored', async () => {
    const list = await api(lab.url, '/api/sweeps');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(await lab.redis.zcard(lab.store.keys.sweeps)).toBe(0);
    expect(await lab.redis.zcard(lab.store.keys.active)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// 5: auth (and the backlog of a lab without workers)

describe('a lab with an API token', () => {
  const token = 'secret';
  let lab: TestLab;
  const spec = { name: 'auth', players: 3, seats: ['random', 'random', 'random'], deals: { count: 5 } };

  beforeAll(async () => {
    lab = await startLab({ workers: 0, apiToken: token });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('mutating routes need the token; reading routes do not', async () => {
    const none = await post(lab, '/api/sweeps', spec);
    expect(none.status).toBe(401);
    expect(none.body.error).toContain('Authorization');
    for (const wrong of ['secreT', 'wrong-token', 'secret2']) {
      const res = await post(lab, '/api/sweeps', spec, wrong);
      expect(res.status, wrong).toBe(401);
    }
    const raw = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec, headers: { authorization: token } });
    expect(raw.status).toBe(401);
    expect((await api(lab.url, '/api/sweeps')).body).toEqual([]);

    const created = await post(lab, '/api/sweeps', spec, token);
    expect(created.status).toBe(201);
    const id = created.body.id;
    const games = sweepSize(parseSweepSpec(spec)).total;

    const list = await api(lab.url, '/api/sweeps');
    expect(list.status).toBe(200);
    expect(list.body.map((s: any) => s.id)).toEqual([id]);
    expect((await api(lab.url, `/api/sweeps/${id}`)).status).toBe(200);
    expect((await api(lab.url, `/api/sweeps/${id}/games`)).status).toBe(200);
    expect((await api(lab.url, `/api/sweeps/${id}/export?format=csv`)).status).toBe(200);
    expect((await api(lab.url, '/metrics')).status).toBe(200);
    expect((await api(lab.url, '/api/openapi.json')).status).toBe(200);

    // No workers: the whole sweep is backlog while it runs.
    expect((await api(lab.url, '/api/backlog')).body).toEqual({ backlog: games });

    for (const action of ['pause', 'cancel', 'resume', 'retry-failed']) {
      const res = await post(lab, `/api/sweeps/${id}/${action}`);
      expect(res.status, action).toBe(401);
      expect((await post(lab, `/api/sweeps/${id}/${action}`, undefined, 'nope')).status, action).toBe(401);
    }
    expect((await detail(lab, id)).status).toBe('running');

    const paused = await post(lab, `/api/sweeps/${id}/pause`, undefined, token);
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    // A paused sweep is not backlog.
    expect((await api(lab.url, '/api/backlog')).body).toEqual({ backlog: 0 });
    // Nothing was played, so every game is back in line.
    expect(paused.body.counts).toEqual({ total: games, done: 0, failed: 0, queued: 0, pending: games, skipped: 0 });
  });
});

describe('access log and routes', () => {
  const token = 'Tok3n';
  let lab: TestLab;
  const lines: any[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    lab = await startLab({ workers: 0, apiToken: token, logger });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('one structured line per request, without the Authorization header, with a request id echoed back', async () => {
    const before = lines.length;
    const res = await api(lab.url, '/api/sweeps?limit=5', { headers: { 'x-request-id': 'probe-1', authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('probe-1');
    const mine = lines.slice(before).filter((l) => l.req?.url === '/api/sweeps?limit=5');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, req: { id: 'probe-1', method: 'GET', url: '/api/sweeps?limit=5' }, res: { status: 200 }, msg: 'GET /api/sweeps?limit=5 200' });
    expect(mine[0].responseTime).toBeTypeOf('number');
    expect(JSON.stringify(lines.slice(before))).not.toContain(token);
    // A refusal is a warning; a client's id that is not sane is replaced.
    const bad = await api(lab.url, '/api/sweeps?limit=0', { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.find((l) => l.req?.url === '/api/sweeps?limit=0')).toMatchObject({ level: 40, res: { status: 400 } });
  });

  test('the Bearer scheme is read in any case; the token is not', async () => {
    const spec = { name: 'case', players: 3, seats: ['random', 'random', 'random'], deals: { count: 1 } };
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `  bEaReR   ${token}  `]) {
      const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec, headers: { authorization: header } });
      expect(res.status, header).toBe(201);
    }
    for (const header of [`Bearer ${token.toLowerCase()}`, `Basic ${token}`, `Bearer${token}`, `Bearer ${token} extra`, token, '']) {
      const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec, headers: { authorization: header } });
      expect(res.status, header).toBe(401);
    }
  });

  test('a game that failed every attempt shows as failed, with its error, in the games page and the counts', async () => {
    const spec = { name: 'failing', players: 3, seats: ['random', 'random', 'random'], deals: { count: 3 } };
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec, token });
    expect(created.status).toBe(201);
    const sweep = new Sweep(parseSweepSpec(spec));
    // No worker is busy, so the feeder keeps a couple of jobs queued (Feeder.shares): games 0 and 1,
    // then game 2 once game 1 has failed.
    await waitFor(async () => (await lab.store.reads.outstanding(created.body.id)).length >= 2, 'the games to be queued');
    expect(await lab.store.ledger.recordFailure(created.body.id, 1, sweep.game(1).id, 'boom: the agent threw')).toBe(true);
    await waitFor(async () => (await lab.store.reads.outstanding(created.body.id)).sort().join() === '0,2', 'the last game to be queued');
    const page = await api(lab.url, `/api/sweeps/${created.body.id}/games`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((g: any) => [g.index, g.state, g.error])).toEqual([
      [0, 'queued', undefined],
      [1, 'failed', 'boom: the agent threw'],
      [2, 'queued', undefined],
    ]);
    const overview = (await api(lab.url, `/api/sweeps/${created.body.id}`)).body;
    expect(overview.counts).toEqual({ total: 3, done: 0, failed: 1, queued: 2, pending: 0, skipped: 0 });
  });

  test('unknown /api paths are JSON 404s, whatever the method, token or body', async () => {
    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/nope'],
      ['GET', '/api/sweeps/abcdefgh/nope'],
      ['POST', '/api/nope'],
      ['POST', '/api/sweeps/abcdefgh/delete'],
      ['PUT', '/api/sweeps'],
      ['DELETE', '/api/sweeps/abcdefgh'],
      ['PATCH', '/api/sweeps/validate'],
    ]) {
      const withBody = method === 'GET' ? {} : { body: '{"not": "read"', headers: { 'content-type': 'application/json' } };
      const res = await api(lab.url, path, { method, ...withBody });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(res.body.error, `${method} ${path}`).toMatch(/no such route/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 6: pause, resume, cancel (and a sweep without records)

describe('sweep lifecycle', () => {
  const workers = 1;
  const slots = 2;
  const feedWindow = 4;
  let lab: TestLab;
  const slow = { players: 3, seats: ['mcts(it=200)', 'rulebased', 'rulebased'] };
  const specA = { name: 'lifecycle-a', ...slow, deals: { count: 20 } };
  const specB = { name: 'lifecycle-b', ...slow, deals: { count: 40 } };

  beforeAll(async () => {
    lab = await startLab({ workers, slots, feedWindow });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('pause takes queued games back, resume plays every game once, cancel stops for good', async () => {
    const totalA = sweepSize(parseSweepSpec(specA)).total;
    const totalB = sweepSize(parseSweepSpec(specB)).total;
    const a = await post(lab, '/api/sweeps', specA);
    expect(a.status).toBe(201);
    const idA = a.body.id;

    // The feeder keeps at most the window in the queue.
    await waitFor(async () => (await detail(lab, idA)).counts.done >= 2, 'sweep A to play two games', 20_000);
    const running = await detail(lab, idA);
    // Batched, the window is at least eight batches (FEED_WINDOW is raised to them).
    expect(running.batch).toBeGreaterThan(1);
    expect(running.counts.queued).toBeLessThanOrEqual(Math.max(feedWindow, 8 * running.batch));

    // Pause: waiting jobs are taken back; only the games being played stay out.
    const paused = await post(lab, `/api/sweeps/${idA}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    const atPause = paused.body.counts;
    // Only the jobs being played stay out: a batch of games per slot.
    expect(atPause.queued).toBeLessThanOrEqual(workers * slots * running.batch);
    expect(atPause.done).toBeLessThan(totalA);

    // The running games end; then nothing more is played. (An overview reads the counters before
    // the queue, so the one that first shows nothing queued may miss the last game's count: read
    // again once the queue is empty.)
    await waitFor(async () => (await detail(lab, idA)).counts.queued === 0, 'the running games of paused sweep A to finish', 10_000);
    const drained = await detail(lab, idA);
    expect(drained.status).toBe('paused');
    // Only the games running at the pause (at most a batch per slot) may have finished since.
    expect(drained.counts.done).toBeLessThanOrEqual(atPause.done + workers * slots * running.batch);
    await sleep(1200); // many feeder ticks, longer than a game
    const still = await detail(lab, idA);
    expect(still.status).toBe('paused');
    expect(still.counts.done).toBe(drained.counts.done);
    expect(still.counts).toMatchObject({ queued: 0, pending: totalA - drained.counts.done });
    const text = await (await fetch(`${lab.url}/metrics`)).text();
    for (const state of ['waiting', 'prioritized', 'active']) expect(metric(text, `wonderlab_queue_jobs{state="${state}"}`), state).toBe(0);
    expect(metric(text, 'wonderlab_backlog_games')).toBe(0);
    expect(await resultCount(lab.store, idA)).toBe(still.counts.done);

    // Another sweep, cancelled after it has started.
    const b = await post(lab, '/api/sweeps', specB);
    expect(b.status).toBe(201);
    const idB = b.body.id;
    await waitFor(async () => (await detail(lab, idB)).counts.done >= 1, 'sweep B to play a game', 20_000);
    const cancelled = await post(lab, `/api/sweeps/${idB}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const atCancel = cancelled.body.counts;
    const batchB = (await detail(lab, idB)).batch;
    expect(atCancel.queued).toBeLessThanOrEqual(workers * slots * batchB);
    expect(atCancel.done).toBeLessThan(totalB);

    // Resume A: it runs to the end, every game counted once.
    const resumed = await post(lab, `/api/sweeps/${idA}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('running');
    const finished = await waitForSweep(lab, idA, 40_000);
    expect(finished.status).toBe('done');
    expect(finished.counts).toEqual({ total: totalA, done: totalA, failed: 0, queued: 0, pending: 0, skipped: 0 });
    expect(await resultCount(lab.store, idA)).toBe(totalA);
    expect(finished.cells[0].games).toBe(totalA);
    expect(finished.cells[0].labels.reduce((s: number, l: any) => s + l.games, 0)).toBe(totalA * slow.players);
    const { items } = await allGames(lab, idA, 1000);
    expect(items.every((g) => g.state === 'done')).toBe(true);
    expect(new Set(items.map((g) => g.summary.id)).size).toBe(totalA);
    expect(lab.workers.reduce((s, w) => s + w.counts.duplicate, 0)).toBe(0);

    // B never got further than the games it was playing when cancelled.
    await waitFor(async () => (await detail(lab, idB)).counts.queued === 0, 'sweep B to have nothing queued', 10_000);
    const bAfter = await detail(lab, idB);
    expect(bAfter.status).toBe('cancelled');
    expect(bAfter.counts.done).toBeLessThanOrEqual(atCancel.done + workers * slots * batchB);
    expect(bAfter.counts.done).toBeLessThan(totalB);
    expect(await resultCount(lab.store, idB)).toBe(bAfter.counts.done);

    // Transitions that are not allowed.
    const cancelDone = await post(lab, `/api/sweeps/${idA}/cancel`);
    expect(cancelDone.status).toBe(409);
    expect(cancelDone.body.error).toContain('done');
    expect((await post(lab, `/api/sweeps/${idA}/pause`)).status).toBe(409);
    expect((await post(lab, `/api/sweeps/${idA}/resume`)).status).toBe(409);
    const pauseCancelled = await post(lab, `/api/sweeps/${idB}/pause`);
    expect(pauseCancelled.status).toBe(409);
    expect(pauseCancelled.body.error).toContain('cancelled');
    expect((await post(lab, `/api/sweeps/${idB}/resume`)).status).toBe(409);
    expect((await post(lab, `/api/sweeps/${idB}/retry-failed`)).status).toBe(409);
    expect((await detail(lab, idA)).status).toBe('done');
    expect((await detail(lab, idB)).status).toBe('cancelled');

    for (const action of ['pause', 'resume', 'cancel', 'retry-failed']) {
      const res = await post(lab, `/api/sweeps/zzzzzzzzzz/${action}`);
      expect(res.status, action).toBe(404);
    }
    expect((await api(lab.url, '/api/sweeps/zzzzzzzzzz')).status).toBe(404);
  });

  test('pause during a feeder round: games claimed but not yet queued are not played while paused', async () => {
    // The feeder claims games (a Redis script moves them to the sweep's outstanding set), then
    // queues their jobs. A pause that lands between the two cannot take those jobs back (they are
    // not in the queue yet), so the games are queued after the pause and played while paused.
    // The hook below holds the real feeder's round open between the two steps to make that
    // interleaving certain; it changes nothing else.
    const race = await startLab({ workers: 0, feedWindow });
    const store = race.coordinator.feederStore.ledger;
    const realClaim = store.claimJobs.bind(store);
    let claimed!: (games: number) => void;
    const claimedOnce = new Promise<number>((resolve) => (claimed = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let armed = true;
    store.claimJobs = async (id: string, window: number) => {
      const got = await realClaim(id, window);
      const games = got.singles.length + got.batches.reduce((sum, b) => sum + b.n, 0);
      if (armed && games) {
        armed = false;
        claimed(games);
        await gate;
      }
      return got;
    };
    try {
      const spec = { name: 'pause-race', players: 3, seats: ['random', 'random', 'random'], deals: { count: 20 } };
      const total = sweepSize(parseSweepSpec(spec)).total;
      const created = await post(race, '/api/sweeps', spec);
      expect(created.status).toBe(201);
      const id = created.body.id;
      const got = await Promise.race([claimedOnce, sleep(5000).then(() => 0)]);
      // With no worker busy the feeder's first round queues a couple of jobs (Feeder.shares).
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(total);

      // No worker exists: no game is being played, so after the pause nothing may be.
      const paused = await post(race, `/api/sweeps/${id}/pause`);
      expect(paused.status).toBe(200);
      expect(paused.body.status).toBe('paused');

      release();
      await race.coordinator.feeder.tick(); // the held round finishes
      race.addWorker(2);
      await sleep(1500); // random games take milliseconds each
      const after = await detail(race, id);
      expect(after.status).toBe('paused');
      expect(after.counts.done, 'games played while the sweep was paused').toBe(0);
      expect(after.counts).toMatchObject({ total, done: 0, queued: 0, pending: total });
    } finally {
      release();
      store.claimJobs = realClaim;
      await race.close();
    }
  });

  test('a sweep with keepRecords false stores summaries but no records', async () => {
    const spec = { name: 'no-records', players: 3, seats: ['random', 'rulebased', 'random'], deals: { count: 2 }, keepRecords: false };
    const sweep = new Sweep(parseSweepSpec(spec));
    const created = await post(lab, '/api/sweeps', spec);
    expect(created.status).toBe(201);
    await waitForSweep(lab, created.body.id, 20_000);
    const res = await api(lab.url, `/api/sweeps/${created.body.id}/games/${sweep.game(0).id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(sweep.game(0).id);
    expect(res.body.record).toBeUndefined();
    const steps = await api(lab.url, `/api/sweeps/${created.body.id}/games/${sweep.game(0).id}/timeline`);
    expect(steps.status).toBe(404);
    expect(steps.body.error).toMatch(/keepRecords/);
  });
});
