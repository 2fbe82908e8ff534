/**
 * The play page's games, run on threads of their own (thread.ts) so that agents thinking never
 * hold the coordinator's event loop, and so that one game's agents never hold up another game:
 *
 * - views (and `forget`) go to a thread of their own, which never runs an agent's search: another
 *   game's page answers while agents think;
 * - moves and hints go to a pool of threads: the one that played the game last when it is free
 *   (it still holds the agents' memories), else any free one (which rebuilds the game from its
 *   log), else they wait their turn, first come first served, in a bounded queue (past it:
 *   PlayBusy, a 429);
 * - the requests of one game are served one at a time, in order;
 * - a request that runs past `deadlineMs` ends its thread (its agents are stopped; the thread's
 *   other games are rebuilt from their logs when next asked for) and fails with PlayTimeout. The
 *   cost check at creation keeps agents well under it; this is the backstop.
 *
 * Each request carries the game as stored (its setup and move log), so nothing depends on a
 * thread's memory.
 */
import { ThreadClient } from '../threads/thread-client.js';
import type { PlayReply, PlayRequest } from './messages.js';

const ENTRY = new URL('./thread.js', import.meta.url);

export interface PlayTablesOptions {
  /** Threads the agents think on (PLAY_THREADS). */
  threads: number;
  /** Moves and hints waiting for a thread, at most. */
  queue: number;
  /** A move or hint that has not been answered by then ends its thread. */
  deadlineMs: number;
}

/** Every agents' thread is busy and the queue is full: try again shortly. */
export class PlayBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlayBusy';
  }
}

/** A move or hint ran past the deadline: its agents were stopped, the game is as it was. */
export class PlayTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlayTimeout';
  }
}

interface Lane {
  client: ThreadClient<PlayRequest, PlayReply>;
  busy: boolean;
}

/** Games whose thread is remembered (least recently used forgotten first). */
const HOMES = 2000;

export class PlayTables {
  private readonly views = new ThreadClient<PlayRequest, PlayReply>(ENTRY);
  private readonly lanes: Lane[];
  private readonly waiting: { start: (lane: Lane) => void }[] = [];
  /** The lane that served each game last. */
  private readonly homes = new Map<string, Lane>();
  /** Each game's last request, so that the next one starts after it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly o: PlayTablesOptions = { threads: 1, queue: 16, deadlineMs: 60_000 }) {
    this.lanes = Array.from({ length: Math.max(1, o.threads) }, () => ({ client: new ThreadClient<PlayRequest, PlayReply>(ENTRY), busy: false }));
  }

  call(request: PlayRequest): Promise<PlayReply> {
    if (request.op === 'view') return this.views.call(request);
    if (request.op === 'forget') return Promise.all([this.views, ...this.lanes.map((l) => l.client)].map((c) => c.call(request))).then(() => ({}));
    const { id } = request;
    const previous = this.tails.get(id) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(() => this.think(request));
    const tail = result.catch(() => undefined);
    this.tails.set(id, tail);
    void tail.then(() => {
      if (this.tails.get(id) === tail) this.tails.delete(id);
    });
    return result;
  }

  /** Runs a move or hint on a free lane (its game's own when free), within the deadline. */
  private async think(request: PlayRequest): Promise<PlayReply> {
    const lane = await this.acquire(request.id);
    this.homes.delete(request.id);
    this.homes.set(request.id, lane);
    while (this.homes.size > HOMES) this.homes.delete(this.homes.keys().next().value!);
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new PlayTimeout(`the agents of game '${request.id}' did not answer within ${Math.round(this.o.deadlineMs / 1000)} s: they were stopped and the game is as it was (choose faster agents)`);
          void lane.client.abort(err);
          reject(err);
        }, this.o.deadlineMs);
      });
      return await Promise.race([lane.client.call(request), deadline]);
    } finally {
      clearTimeout(timer);
      this.release(lane);
    }
  }

  private acquire(id: string): Promise<Lane> {
    const home = this.homes.get(id);
    const lane = home && !home.busy ? home : this.lanes.find((l) => !l.busy);
    if (lane) {
      lane.busy = true;
      return Promise.resolve(lane);
    }
    if (this.waiting.length >= this.o.queue) {
      return Promise.reject(new PlayBusy(`the play page's ${this.lanes.length} agent thread${this.lanes.length === 1 ? ' is' : 's are'} busy and ${this.waiting.length} moves wait (PLAY_THREADS): try again in a few seconds`));
    }
    return new Promise((resolve) => this.waiting.push({ start: resolve }));
  }

  private release(lane: Lane): void {
    const next = this.waiting.shift();
    if (next) next.start(lane);
    else lane.busy = false;
  }

  warm(): void {
    this.views.warm();
    for (const l of this.lanes) l.client.warm();
  }

  async close(): Promise<void> {
    await Promise.all([this.views.close(), ...this.lanes.map((l) => l.client.close())]);
  }
}
