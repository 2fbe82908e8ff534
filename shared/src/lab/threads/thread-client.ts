/**
 * A request/reply channel to one worker thread, for work that must not hold the caller's event
 * loop (rating fits, a large sweep's statistics). Replies are matched by id; a thread that dies
 * fails the requests it held, and the next request starts a new one. An error crosses as its
 * name, message and code, so that the caller's checks (isRedisUnavailable) still recognize it.
 */
import { parentPort, Worker } from 'node:worker_threads';

type Reply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: { name: string; message: string; code?: string } };

export class ThreadClient<Q, R> {
  private thread?: Worker;
  private readonly pending = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly entry: URL,
    private readonly workerData?: unknown,
  ) {}

  call(request: Q): Promise<R> {
    if (this.closed) return Promise.reject(new Error('thread closed'));
    const thread = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.postMessage({ id, request });
    });
  }

  /** Starts the thread now, so that the first request does not wait for it to load. */
  warm(): void {
    if (!this.closed) this.ensure();
  }

  private ensure(): Worker {
    if (this.thread) return this.thread;
    const thread = new Worker(this.entry, { workerData: this.workerData });
    thread.unref();
    thread.on('message', (reply: Reply<R>) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name, code: reply.error.code }));
    });
    const die = (err: Error) => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      for (const w of this.pending.values()) w.reject(err);
      this.pending.clear();
    };
    thread.on('error', die);
    thread.on('exit', (code) => die(new Error(`a worker thread exited with code ${code}`)));
    this.thread = thread;
    return thread;
  }

  /**
   * Ends the thread now, whatever it is doing (a request that runs too long): the requests it held
   * fail with `reason`, and the next request starts a new thread.
   */
  async abort(reason: Error): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    for (const w of this.pending.values()) w.reject(reason);
    this.pending.clear();
    await thread?.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = undefined;
    for (const w of this.pending.values()) w.reject(new Error('thread closed'));
    this.pending.clear();
    await thread?.terminate();
  }
}

/** The thread's side: answers each request with `handle`, one at a time in arrival order. */
export function serveRequests<Q, R>(handle: (request: Q) => R | Promise<R>): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests must run in a worker thread');
  let queue = Promise.resolve();
  port.on('message', ({ id, request }: { id: number; request: Q }) => {
    queue = queue.then(async () => {
      try {
        port.postMessage({ id, ok: true, result: await handle(request) });
      } catch (err) {
        const e = err as { name?: string; message?: string; code?: string };
        port.postMessage({ id, ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(err), ...(typeof e.code === 'string' ? { code: e.code } : {}) } });
      }
    });
  });
}
