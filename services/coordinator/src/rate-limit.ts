/**
 * A token bucket per client: `perMinute` requests a minute, in bursts of up to `perMinute`. In one
 * coordinator's memory (each coordinator of a cluster counts its own). The client is the address
 * the coordinator sees: behind a proxy that does not pass the client's own, its clients share one.
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perMinute: number,
    /** Clients remembered at most (the least recently seen forgotten first: their buckets are full again). */
    private readonly clients = 10_000,
  ) {}

  /** Takes one request's token for `client`: 0 when allowed, else the seconds until one is back. */
  take(client: string, now = Date.now()): number {
    const rate = this.perMinute / 60_000;
    const b = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * rate);
    b.at = now;
    this.buckets.delete(client);
    this.buckets.set(client, b);
    if (this.buckets.size > this.clients) this.buckets.delete(this.buckets.keys().next().value!);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / rate / 1000);
  }
}
