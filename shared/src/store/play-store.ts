/**
 * The play page's games in Redis: one JSON string per game (setup, moves, the hash of its token,
 * times, and once it is over its summary and record). A game in progress expires after a time
 * without a move (an abandoned game); a finished one is kept, and listed by when it ended.
 */
import type { Redis } from 'ioredis';
import type { GameRecord, MoveLog } from '../engine/index.js';
import type { GameSummary, PlaySetup } from '../lab/index.js';
import type { Keys } from './keys.js';

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

export class PlayStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    /** Seconds a game in progress is kept after its last move. */
    readonly idleSeconds: number,
  ) {}

  async load(id: string): Promise<StoredPlay | undefined> {
    const text = await this.redis.get(this.keys.play(id));
    return text ? (JSON.parse(text) as StoredPlay) : undefined;
  }

  /** Stores the game: with its idle expiry while it runs, for good (and listed) once it is over. */
  async save(play: StoredPlay): Promise<void> {
    const key = this.keys.play(play.id);
    const text = JSON.stringify(play);
    if (!play.over) {
      await this.redis.set(key, text, 'EX', this.idleSeconds);
      return;
    }
    await this.redis.multi().set(key, text).zadd(this.keys.plays, play.updated, play.id).exec();
  }

  /** Finished games, the latest first: ids and when they ended. */
  async finished(offset: number, limit: number): Promise<{ id: string; ended: number }[]> {
    const flat = await this.redis.zrevrange(this.keys.plays, offset, offset + limit - 1, 'WITHSCORES');
    const out: { id: string; ended: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ id: flat[i], ended: Number(flat[i + 1]) });
    return out;
  }
}
