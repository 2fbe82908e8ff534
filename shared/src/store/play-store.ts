/**
 * The play page's games in Redis: one JSON string per game (setup, moves, the hash of its token,
 * times, and once it is over its summary and record). A game in progress expires after a time
 * without a move (an abandoned game); a finished one is kept, and listed by when it ended. A game
 * set up with `ladder: true` adds its finishing order to the ladder's when it ends.
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

/** A finished game's seats grouped by rank, best first, each as its canonical spec (the person as `human`). */
export function finishingOrder(summary: GameSummary): string[][] {
  const ranks = [...new Set(summary.players.map((p) => p.rank))].sort((a, b) => a - b);
  return ranks.map((r) => summary.players.filter((p) => p.rank === r).map((p) => p.canonical).sort());
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
    const tx = this.redis.multi().set(key, text).zadd(this.keys.plays, play.updated, play.id);
    // Asked for at the start, the game joins the ladder: its finishing order, counted once (a game is stored as over once).
    if (play.setup.ladder && play.summary) tx.hincrby(this.keys.playOrders, JSON.stringify(finishingOrder(play.summary)), 1);
    await tx.exec();
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
