/**
 * Server-Sent Events for sweeps. Every listener of a sweep gets its overview (status, counts,
 * progress, rate: a kilobyte) at once and again whenever games finish or the status changes, at
 * most once per interval, with `version` (games finished, failed and skipped) so that a page
 * fetches the detail (GET /api/sweeps/:id, megabytes for a large sweep) only when it changed.
 *
 * What it costs: one poll per sweep, shared by all its listeners, reading the sweep's state and
 * overview (a few small reads; never the aggregates) and sending only what changed; nothing for a
 * finished sweep but a look at its state with the heartbeat (a retry of its failed games starts it
 * again); a new listener of a quiet sweep gets the last message as it was. A listener that does not read is
 * dropped once MAX_BUFFERED_BYTES wait in its socket: nothing is buffered without bound.
 */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { isRedisUnavailable, type OutageLog, type SweepMeta, type SweepStore } from '@wonderlab/shared/store';
import { sweepOverview } from './views.js';

interface Channel {
  listeners: Set<Response>;
  /** The poll while the sweep can change (absent once it is finished). */
  timer?: NodeJS.Timeout;
  /** The sweep's state behind the last message, what the message showed (rate aside), and the message. */
  state?: string;
  shown?: string;
  message?: string;
  busy: boolean;
}

const HEARTBEAT_MS = 15_000;
/** A listener with this much unsent (it does not read) is dropped: it reconnects when it reads again. */
export const MAX_BUFFERED_BYTES = 256 * 1024;

const FINISHED: readonly SweepMeta['status'][] = ['done', 'cancelled'];

/** What a message depends on: status and counts (not the rate, which moves with the clock). */
const stateOf = (m: SweepMeta) => JSON.stringify([m.status, m.done, m.failed, m.skipped, m.cursor, m.total, m.priority]);

export class SweepEvents {
  private readonly channels = new Map<string, Channel>();
  private readonly heartbeat: NodeJS.Timeout;
  /** Listeners dropped for not reading (for tests and metrics). */
  dropped = 0;

  constructor(
    private readonly store: SweepStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly outage?: OutageLog,
    private readonly maxBufferedBytes = MAX_BUFFERED_BYTES,
  ) {
    this.heartbeat = setInterval(() => {
      for (const [id, channel] of this.channels) {
        for (const res of channel.listeners) this.send(channel, res, ': keep-alive\n\n');
        // A finished sweep is looked at once a heartbeat: retry-failed can start it again.
        if (!channel.timer) void this.poll(id, channel);
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  subscribe(id: string, res: Response): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    let channel = this.channels.get(id);
    if (!channel) {
      channel = { listeners: new Set(), busy: false };
      this.channels.set(id, channel);
      this.watch(id, channel);
    }
    const ch = channel;
    ch.listeners.add(res);
    res.on('close', () => {
      ch.listeners.delete(res);
      if (ch.listeners.size === 0) {
        clearInterval(ch.timer);
        this.channels.delete(id);
      }
    });
    if (ch.message) this.send(ch, res, ch.message);
    else void this.poll(id, ch);
  }

  private watch(id: string, channel: Channel): void {
    if (!channel.timer) channel.timer = setInterval(() => void this.poll(id, channel), this.intervalMs);
  }

  /** Writes to one listener, or drops it when it has stopped reading. */
  private send(channel: Channel, res: Response, text: string): void {
    if (res.writableLength > this.maxBufferedBytes) {
      channel.listeners.delete(res);
      this.dropped++;
      res.destroy();
      return;
    }
    res.write(text);
  }

  private async poll(id: string, channel: Channel): Promise<void> {
    if (channel.busy) return;
    channel.busy = true;
    try {
      const meta = await this.store.reads.meta(id);
      if (!meta) return;
      const state = stateOf(meta);
      const finished = FINISHED.includes(meta.status);
      if (finished) {
        clearInterval(channel.timer);
        channel.timer = undefined;
      } else this.watch(id, channel);
      // A finished sweep's state says all; a running one's overview is read each interval (a few
      // small reads), since what it shows can move without a game finishing (degraded, queue).
      if (finished && state === channel.state && channel.message) return;
      const overview = await sweepOverview(this.store, meta);
      const shown = JSON.stringify([state, overview.counts, overview.degraded]);
      if (shown === channel.shown && channel.message) return;
      channel.shown = shown;
      const version = meta.done + meta.failed + meta.skipped;
      channel.state = state;
      channel.message = `event: sweep\nid: ${meta.done + meta.failed}\ndata: ${JSON.stringify({ ...overview, version })}\n\n`;
      for (const res of channel.listeners) this.send(channel, res, channel.message);
    } catch (err) {
      // An outage fails every poll of every sweep: it is logged once (and at a bounded rate).
      if (this.outage && isRedisUnavailable(err)) this.outage.error(err, 'events');
      else this.logger.warn({ err, sweep: id }, 'sweep events: poll failed');
    } finally {
      channel.busy = false;
    }
  }

  /** Listeners now, over every sweep. */
  get listeners(): number {
    let n = 0;
    for (const c of this.channels.values()) n += c.listeners.size;
    return n;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const channel of this.channels.values()) {
      clearInterval(channel.timer);
      for (const res of channel.listeners) res.end();
    }
    this.channels.clear();
  }
}
