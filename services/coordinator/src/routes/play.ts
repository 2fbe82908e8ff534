/**
 * The play page's API: a person plays one seat against agents. A game is created with a token
 * (only its hash is stored); its view, moves and hints need the token (header X-Play-Token). The
 * agents think on the play threads (lab/play/tables.ts), never on this event loop, and one game's
 * agents never hold up another game's page; every request carries the stored game, so a restart or
 * another coordinator loses nothing but the agents' memories between moves. A finished game is
 * kept for good, with its record; one in progress expires after PLAY_IDLE_SECONDS without a move.
 *
 * What a game may cost is checked when it is created (and a hint when asked): each agent within
 * the lab's per-move limits (MAX_MOVE_SECONDS, MAX_MOVE_ITERATIONS), and the agents of one step
 * together within PLAY_MOVE_SECONDS of estimated thinking. New games are rate-limited per client
 * (PLAY_NEW_PER_MINUTE) and capped in number (PLAY_MAX_GAMES in progress), and refused while
 * Redis is near its memory limit or has lost the lab's data, as new sweeps are. Every save is
 * compare-and-set (a stale move is a 409, never a forked game).
 *
 * These routes are mounted before the request deadline: a move waits for every agent of the
 * step to think.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { HUMAN, PlayError, checkOutsideAgent, checkPlaySetup, moveProblem, parseAgentSpec, playStepProblem, timeline, type PlayReply, type PlayRequest, type PlaySetup, type PlayTables, type SweepLimits } from '@wonderlab/shared';
import { PlaySaveError, type PlayStore, type StoredPlay } from '@wonderlab/shared/store';
import { TimelineQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import type { LabHealth } from '../lab-health.js';
import type { RateLimit } from '../rate-limit.js';
import type { ModelChecks } from '../model-checks.js';
import { viewerSeat } from './games.js';

export interface PlayRouteDeps {
  plays: PlayStore;
  tables: PlayTables;
  limits: SweepLimits;
  /** Where the networks agents read are checked (off the event loop). */
  models: ModelChecks;
  /** The API token check (creating a game costs the lab CPU, as a sweep does). */
  requireToken: RequestHandler;
  /** PLAY_MOVE_SECONDS: the estimated thinking of one step's agents together, at most. */
  moveSeconds: number;
  /** New games per client and minute. */
  newGames: RateLimit;
  /** Redis's memory and keyspace (new games are refused as new sweeps are); without it, not checked. */
  health?: LabHealth;
  json: RequestHandler;
  contentType: RequestHandler;
}

export const PlayCreateSchema = z
  .strictObject({
    players: z.number().int().min(3).max(7).describe('Seats at the table, 3 to 7.'),
    seat: z.number().int().min(0).max(6).describe('Your seat (0-based); `agents` has `human` there.'),
    agents: z.array(z.string().min(1).max(500)).min(3).max(7).describe('An agent spec per seat (any spec a sweep takes), `human` at your seat.'),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional().describe('The deal (and the agents\' generators); random when absent.'),
    boards: z.array(z.string().min(1).max(60)).optional().describe('A city per seat (name or alias); random when absent.'),
    sides: z.enum(['A', 'B', 'random']).optional().describe('Wonder sides (default random).'),
    ladder: z.boolean().optional().describe('Count the finished game on the lab\'s ladder, your seat as `human` (default false).'),
  })
  .describe('A game against agents on the play page.');

export const PlayMoveSchema = z.strictObject({
  move: z.number().int().describe('A move code from the view\'s hand.'),
  version: z.number().int().min(0).optional().describe('The view\'s `version` this move answers (its moves so far): a move for an older view is a 409, not a move in the wrong place.'),
});
export const PlayHintSchema = z.strictObject({ agent: z.string().min(1).max(500).describe('The agent spec that suggests a move from your information, e.g. `mcts-strong:500`.') });

const IdParams = z.strictObject({ id: z.string().regex(/^[a-z0-9]{6,40}$/, 'a play game id') });

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export function playRoutes(d: PlayRouteDeps): Router {
  const { plays, tables } = d;
  const router = Router();

  /** An agent spec within the lab's per-move limits, its network fit for `players` (a 400 naming `field` otherwise). */
  const checkAgent = async (text: string, field: string, players: number) => {
    let spec;
    try {
      spec = parseAgentSpec(text);
    } catch (err) {
      throw new HttpError(400, `${field}: ${(err as Error).message}`, field);
    }
    const problem = moveProblem({ text, field }, spec, d.limits);
    if (problem) throw new HttpError(400, `${problem.field}: ${problem.message}`, problem.field);
    if (spec.kind === 'ext') {
      try {
        checkOutsideAgent(spec, players);
      } catch (err) {
        throw new HttpError(400, `${field}: ${(err as Error).message}`, field);
      }
    }
    const modelProblem = await d.models.agentProblem(spec, players);
    if (modelProblem) throw new HttpError(400, `${field}: ${modelProblem}`, field);
  };

  /** What one step (or a hint) would make a person wait for, within PLAY_MOVE_SECONDS (a 400 naming the costliest agent otherwise). */
  const checkWait = (agents: { text: string; field: string }[], players: number) => {
    const problem = playStepProblem(agents, players, d.moveSeconds);
    if (problem) throw new HttpError(400, `${problem.field}: ${problem.message}`, problem.field);
  };

  /** The game, after its token is checked: 404 when there is none (or it expired), 401/403 for the token. */
  const game = async (req: Request): Promise<StoredPlay> => {
    const { id } = parse(IdParams, req.params, 'params');
    const play = await plays.load(id);
    if (!play) throw new HttpError(404, `no game '${id}' (a finished game is kept; one in progress expires after ${plays.idleSeconds} s without a move)`);
    const token = req.get('x-play-token');
    if (!token) throw new HttpError(401, 'this route needs the header X-Play-Token: <the token the game was created with>');
    if (!timingSafeEqual(Buffer.from(digest(token)), Buffer.from(play.tokenHash))) throw new HttpError(403, 'X-Play-Token is not this game\'s token');
    return play;
  };

  /** A finished game, without a token (it hides nothing any more). */
  const finished = async (req: Request): Promise<StoredPlay> => {
    const { id } = parse(IdParams, req.params, 'params');
    const play = await plays.load(id);
    if (!play?.over) throw new HttpError(404, play ? `game '${id}' is not over yet` : `no game '${id}'`);
    return play;
  };

  /** A request to the play threads: refusals as 400s (409 when another request moved the game first), a full pool a 429, a stopped one a 503. */
  const call = async (request: PlayRequest, res: Response): Promise<PlayReply> => {
    try {
      return await tables.call(request);
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.name === 'PlayBusy') {
        res.set('retry-after', '5');
        throw new HttpError(429, e.message);
      }
      if (e.name === 'PlayTimeout') throw new HttpError(503, e.message);
      if (e.name !== 'PlayError') throw err;
      throw new HttpError(/moved on/.test(e.message) ? 409 : 400, e.message, e.code);
    }
  };

  /**
   * Stores the game as the thread left it, if the stored game is still the one the request started
   * from (`after`: its move count, or 'new'). When it is not, or the store fails, the thread's copy,
   * now ahead of the stored game, is dropped: the stored game stays the truth.
   */
  const keep = async (play: StoredPlay, reply: PlayReply, after: number | 'new', res: Response) => {
    const over = reply.over === true;
    try {
      await plays.save({ ...play, log: reply.log, updated: Date.now(), over, ...(over ? { summary: reply.view!.result, record: reply.record } : {}) }, after);
    } catch (err) {
      await tables.call({ op: 'forget', id: play.id }).catch(() => undefined);
      if (!(err instanceof PlaySaveError)) throw err;
      if (err.reason === 'full') {
        res.set('retry-after', '60');
        throw new HttpError(429, err.message);
      }
      if (err.reason === 'lost') throw new HttpError(503, err.message);
      throw new HttpError(409, err.message);
    }
  };

  router.post('/api/play', d.contentType, d.requireToken, d.json, async (req, res) => {
    const wait = d.newGames.take(req.ip ?? req.socket.remoteAddress ?? '');
    if (wait > 0) {
      res.set('retry-after', String(wait));
      throw new HttpError(429, `too many new games from this client: at most ${d.newGames.perMinute} a minute (PLAY_NEW_PER_MINUTE); the next in ${wait} s`);
    }
    const body = parse(PlayCreateSchema, req.body, 'body');
    const setup: PlaySetup = { ...body, seed: body.seed ?? randomBytes(4).readUInt32BE() >>> 1 };
    if (setup.seat >= setup.players) throw new HttpError(400, `body.seat: expected a seat from 0 to ${setup.players - 1}`, 'body.seat');
    try {
      checkPlaySetup(setup);
    } catch (err) {
      if (err instanceof PlayError) throw new HttpError(400, `body.${err.code ?? 'agents'}: ${err.message}`, `body.${err.code ?? 'agents'}`);
      throw err;
    }
    const agents = setup.agents.flatMap((text, q) => (q === setup.seat ? [] : [{ text, field: `body.agents.${q}` }]));
    for (const a of agents) await checkAgent(a.text, a.field, setup.players);
    checkWait(agents, setup.players);
    // Full already: refused before any work (the save below checks again, atomically).
    if ((await plays.live()) >= plays.maxLive) {
      res.set('retry-after', '60');
      throw new HttpError(429, plays.fullMessage());
    }
    // As a new sweep: not while Redis is near its memory limit or has lost the lab's data.
    const refused = await d.health?.refuseNewWork();
    if (refused) throw new HttpError(503, `no new game now: ${refused}`);
    const id = randomBytes(9).toString('hex');
    const token = randomBytes(18).toString('hex');
    const now = Date.now();
    const play: StoredPlay = { id, setup, tokenHash: digest(token), created: now, updated: now, over: false };
    const reply = await call({ op: 'view', id, stored: { setup } }, res);
    await keep(play, reply, 'new', res);
    res.status(201).json({ id, token, url: `/play/${id}`, view: reply.view });
  });

  router.get('/api/play/:id', async (req, res) => {
    const play = await game(req);
    const reply = await call({ op: 'view', id: play.id, stored: play }, res);
    res.json(reply.view);
  });

  router.post('/api/play/:id/move', d.contentType, d.json, async (req, res) => {
    const play = await game(req);
    const { move, version } = parse(PlayMoveSchema, req.body, 'body');
    const at = play.log?.moves.length ?? 0;
    if (version !== undefined && version !== at) throw new HttpError(409, `this move answers the game at version ${version}; it has moved on to version ${at} since: reload it`, 'body.version');
    const reply = await call({ op: 'move', id: play.id, stored: play, move }, res);
    await keep(play, reply, at, res);
    res.json(reply.view);
  });

  router.post('/api/play/:id/hint', d.contentType, d.json, async (req, res) => {
    const play = await game(req);
    const { agent } = parse(PlayHintSchema, req.body, 'body');
    await checkAgent(agent, 'body.agent', play.setup.players);
    checkWait([{ text: agent, field: 'body.agent' }], play.setup.players);
    const reply = await call({ op: 'hint', id: play.id, stored: play, agent }, res);
    res.json(reply.hint);
  });

  // A finished game as a sweep's game is served (summary and record), for the replay page.
  router.get('/api/play/:id/game', async (req, res) => {
    const play = await finished(req);
    res.json({ ...play.summary, id: play.id, record: play.record });
  });

  router.get('/api/play/:id/game/timeline', async (req, res) => {
    const play = await finished(req);
    const { seat } = parse(TimelineQuery, req.query, 'query');
    res.json({ steps: timeline(play.record!, viewerSeat(seat, play.setup.players)) });
  });

  // The record alone, as a file: `wonderlab replay <file>` checks it.
  router.get('/api/play/:id/record', async (req, res) => {
    const play = await finished(req);
    res.attachment(`wonderlab-play-${play.id}.json`).type('json').send(JSON.stringify(play.record, null, 1));
  });

  router.get('/api/play', async (_req, res) => {
    const list = await plays.finished(0, 100);
    const games = await Promise.all(list.map(async ({ id, ended }) => ({ id, ended: new Date(ended).toISOString(), players: (await plays.load(id))?.summary?.players.map((p) => ({ seat: p.seat, agent: p.canonical, score: p.score.total, winner: p.winner })) })));
    res.json({ games, human: HUMAN });
  });

  return router;
}
