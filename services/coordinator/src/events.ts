/**
 * Server-Sent Events for sweeps: every listener of a sweep gets its detail (counts and
 * aggregates) at once and again whenever a game finishes or the status changes, at most once per
 * interval. One poll per sweep serves all its listeners.
 */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { isRedisUnavailable, type OutageLog, type SweepStore } from '@wonderlab/shared/store';
import { sweepDetail } from './views.js';

interface Channel {
  listeners: Set<Response>;
  timer: NodeJS.Timeout;
  /** done, failed, status and queue counts of the last message. */
  last?: string;
  busy: boolean;
}

const HEARTBEAT_MS = 15_000;

export class SweepEvents {
  private readonly channels = new Map<string, Channel>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly store: SweepStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    /** Cells each event carries (the first page, as GET /api/sweeps/:id gives by default). */
    private readonly cellLimit: number,
    private readonly outage?: OutageLog,
  ) {
    this.heartbeat = setInterval(() => {
      for (const channel of this.channels.values()) for (const res of channel.listeners) res.write(': keep-alive\n\n');
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
      const fresh: Channel = { listeners: new Set(), busy: false, timer: setInterval(() => void this.poll(id, fresh, false), this.intervalMs) };
      this.channels.set(id, (channel = fresh));
    }
    channel.listeners.add(res);
    res.on('close', () => {
      channel.listeners.delete(res);
      if (channel.listeners.size === 0) {
        clearInterval(channel.timer);
        this.channels.delete(id);
      }
    });
    void this.poll(id, channel, true, res);
  }

  private async poll(id: string, channel: Channel, force: boolean, only?: Response): Promise<void> {
    if (channel.busy && !force) return;
    channel.busy = true;
    try {
      const meta = await this.store.meta(id);
      if (!meta) return;
      const detail = await sweepDetail(this.store, meta, { offset: 0, limit: this.cellLimit });
      const signature = JSON.stringify([detail.counts, detail.status]);
      if (!force && signature === channel.last) return;
      channel.last = signature;
      const message = `event: sweep\nid: ${detail.counts.done + detail.counts.failed}\ndata: ${JSON.stringify(detail)}\n\n`;
      for (const res of only ? [only] : channel.listeners) res.write(message);
    } catch (err) {
      // An outage fails every poll of every sweep: it is logged once (and at a bounded rate).
      if (this.outage && isRedisUnavailable(err)) this.outage.error(err, 'events');
      else this.logger.warn({ err, sweep: id }, 'sweep events: poll failed');
    } finally {
      channel.busy = false;
    }
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
