/**
 * The last value of each question, by version, computed at most once at a time: the cache behind
 * work that runs off the event loop (rating fits, a large sweep's statistics). Asked about a newer
 * version, it starts the computation — unless one of the question runs, in which case the newest
 * version asked for is computed next (older asks in between are dropped) — and waits for it at
 * most as long as asked; past that the caller gets the last value with `current: false`.
 */

/** A value with the version of the data it was computed from. */
export interface Versioned<T> {
  value: T;
  version: number;
  /** When it was computed (ms since the epoch), and whether it is of the version asked about. */
  at: number;
  current: boolean;
}

interface Run<T> {
  version: number;
  done: Promise<Versioned<T>>;
  next?: { version: number; compute: () => Promise<T> };
}

export class LatestCache<T> {
  /** Least recently used first. */
  private readonly entries = new Map<string, Omit<Versioned<T>, 'current'>>();
  private readonly running = new Map<string, Run<T>>();

  constructor(
    private readonly size = 256,
    /** Called for every computation that failed (its waiters get the error too). */
    private readonly onError?: (err: Error, key: string) => void,
  ) {}

  /** The last value of `key` if it is of `version` or newer. */
  fresh(key: string, version: number): Versioned<T> | undefined {
    const entry = this.entries.get(key);
    return entry && entry.version >= version ? this.touch(key, entry, true) : undefined;
  }

  /** The last value of `key`, whatever its version (current: false), or undefined before the first. */
  last(key: string): Versioned<T> | undefined {
    const entry = this.entries.get(key);
    return entry && this.touch(key, entry, false);
  }

  /**
   * The value of `key` at `version`: the cached one when it is of that version or newer; else
   * computed (or joined), waiting at most `waitMs` (undefined: until it is ready) — past that, the
   * last value (current: false), or undefined before the first. A computation that fails rejects
   * the callers waiting for it.
   */
  async get(key: string, version: number, compute: () => Promise<T>, waitMs?: number): Promise<Versioned<T> | undefined> {
    const hit = this.fresh(key, version);
    if (hit) return hit;
    const deadline = waitMs === undefined ? Infinity : Date.now() + waitMs;
    // Waits through the run of an older version and then the one of this version, within the wait.
    for (let run: Run<T> | undefined = this.start(key, version, compute); run; ) {
      let timer: NodeJS.Timeout | undefined;
      const late = deadline === Infinity ? new Promise<undefined>(() => {}) : new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
      const got: Versioned<T> | undefined = await Promise.race([run.done, late]).finally(() => clearTimeout(timer));
      if (got && got.version >= version) return got;
      const next = this.running.get(key);
      run = got && next !== run && Date.now() < deadline ? next : undefined;
    }
    return this.last(key);
  }

  private start(key: string, version: number, compute: () => Promise<T>): Run<T> {
    const now = this.running.get(key);
    if (now) {
      if (now.version < version && (!now.next || now.next.version < version)) now.next = { version, compute };
      return now;
    }
    const run: Run<T> = { version, done: compute().then((value) => ({ ...this.store(key, version, value), current: true })) };
    this.running.set(key, run);
    run.done.then(
      () => this.after(key, run),
      (err: Error) => {
        this.onError?.(err, key);
        this.after(key, run);
      },
    );
    return run;
  }

  private after(key: string, run: Run<T>): void {
    this.running.delete(key);
    if (run.next) this.start(key, run.next.version, run.next.compute).done.catch(() => {});
  }

  private store(key: string, version: number, value: T): Omit<Versioned<T>, 'current'> {
    const old = this.entries.get(key);
    if (old && old.version > version) return old;
    const entry = { value, version, at: Date.now() };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private touch(key: string, entry: Omit<Versioned<T>, 'current'>, current: boolean): Versioned<T> {
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { ...entry, current };
  }

  /** Forgets every value (the data they were of is gone). */
  clear(): void {
    this.entries.clear();
  }
}
