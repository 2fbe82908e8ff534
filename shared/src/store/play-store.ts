/**
 * The play page's games in Redis: one JSON string per game (setup, moves, the hash of its token,
 * times, and once it is over its summary and record). A game in progress expires after a time
 * without a move (an abandoned game) and is listed meanwhile, so that the games in progress can be
 * capped; a finished one is kept, and listed by when it ended. A game set up with `ladder: true`
 * adds its finishing order to the ladder's when it ends. Every save is one script (SAVE_PLAY):
 * compare-and-set on the game's moves, so that two requests never fork a game.
 */
import type { Redis } from 'ioredis';
import type { GameRecord, MoveLog } from '../engine/index.js';
import type { GameSummary, PlaySetup } from '../lab/index.js';
import type { Keys } from './keys.js';
import { SAVE_PLAY } from './scripts.js';

export interface StoredPlay {
  id: string;
  setup: PlaySetup;
  log?: MoveLog;
  /** sha256 of the game's token, hex: the token itself is never stored. */
  tokenHash: string;
  created: number;
  updated: number;
  over: boolean;
  summary?: GameSummary;
  record?: GameRecord;
}

/** A finished game's seats grouped by rank, best first, each as its canonical spec (the person as `human`). */
export function finishingOrder(summary: GameSummary): string[][] {
  const ranks = [...new Set(summary.players.map((p) => p.rank))].sort((a, b) => a - b);
  return ranks.map((r) => summary.players.filter((p) => p.rank === r).map((p) => p.canonical).sort());
}

/** Why a play game was not stored: the request's view of the game is out of date, or the lab is full or lost its data. */
export class PlaySaveError extends Error {
  constructor(
    readonly reason: 'lost' | 'exists' | 'full' | 'gone' | 'moved',
    message: string,
  ) {
    super(message);
    this.name = 'PlaySaveError';
  }
}

export class PlayStore {
  /** The keyspace's epoch this coordinator works in (LabHealth stamps it): saves into another keyspace are refused. */
  epoch?: string;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    /** Seconds a game in progress is kept after its last move. */
    readonly idleSeconds: number,
    /** Games in progress at most (a new one past it is refused). */
    readonly maxLive = Number.MAX_SAFE_INTEGER,
  ) {}

  async load(id: string): Promise<StoredPlay | undefined> {
    const text = await this.redis.get(this.keys.play(id));
    return text ? (JSON.parse(text) as StoredPlay) : undefined;
  }

  /**
   * Stores the game, compare-and-set: `after` is the stored game's move count the request started
   * from ('new' for a game not stored yet). In progress, the game keeps its idle expiry; once over
   * it is kept for good, listed, and (asked for at the start) its finishing order joins the ladder's,
   * once. Throws PlaySaveError when the stored game is not the one the request started from, when
   * the lab holds maxLive games in progress (a new one), or when the keyspace lost its data.
   */
  async save(play: StoredPlay, after: number | 'new'): Promise<void> {
    const k = this.keys;
    const order = play.over && play.setup.ladder && play.summary ? JSON.stringify(finishingOrder(play.summary)) : '';
    const reason = (await SAVE_PLAY.run(
      this.redis,
      { play: k.play(play.id), live: k.playsLive, finished: k.plays, orders: k.playOrders, epoch: k.epoch },
      { id: play.id, text: JSON.stringify(play), expected: String(after), over: play.over ? '1' : '0', idleSeconds: this.idleSeconds, now: play.updated, maxLive: this.maxLive, order, epochValue: this.epoch ?? '' },
    )) as string;
    if (reason === 'ok') return;
    const messages: Record<PlaySaveError['reason'], string> = {
      lost: "Redis lost the lab's data (its keyspace epoch is gone or changed): nothing is stored until the coordinators restart",
      exists: `a game '${play.id}' exists already`,
      full: this.fullMessage(),
      gone: `game '${play.id}' expired while this request was made (${this.idleSeconds} s without a move)`,
      moved: `game '${play.id}' has moved on since this request was made: reload it`,
    };
    throw new PlaySaveError(reason as PlaySaveError['reason'], messages[reason as PlaySaveError['reason']] ?? `not stored (${reason})`);
  }

  /** Why a new game is refused when maxLive games are in progress. */
  fullMessage(): string {
    return `the lab has ${this.maxLive} play games in progress, its limit (PLAY_MAX_GAMES): finish or abandon one (a game in progress expires ${this.idleSeconds} s after its last move)`;
  }

  /** Games in progress now (those not expired). */
  async live(now = Date.now()): Promise<number> {
    return this.redis.zcount(this.keys.playsLive, now, '+inf');
  }

  /** Every finishing order of the play games that joined the ladder, with how many games ended so. */
  async finishingOrders(): Promise<Map<string, number>> {
    const all = await this.redis.hgetall(this.keys.playOrders);
    return new Map(Object.entries(all).map(([order, count]) => [order, Number(count)]));
  }

  /** Finished games, the latest first: ids and when they ended. */
  async finished(offset: number, limit: number): Promise<{ id: string; ended: number }[]> {
    const flat = await this.redis.zrevrange(this.keys.plays, offset, offset + limit - 1, 'WITHSCORES');
    const out: { id: string; ended: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ id: flat[i], ended: Number(flat[i + 1]) });
    return out;
  }
}
