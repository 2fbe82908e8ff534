/**
 * Rating fits off the event loop (src/lab/threads/rating-fits.ts): a large fit runs on a thread (the
 * compiled rating-thread, so RatingFits is imported from the package: run `tsc -b` first), the
 * caller is answered from the cache — the fit of the version asked about when it is ready within
 * the wait, else the last one, marked not current — and the numbers are the in-place fit's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RatingFits, solveRatings, type RatingProblem } from '@wonderlab/shared';

/** A star of m configurations: each met the hub (0) in three orders, a few also their neighbour. */
function star(m: number, extra = 0): RatingProblem {
  const rankings = [];
  for (let i = 1; i < m; i++) {
    rankings.push({ groups: [[i], [0], [0]], count: 10 + (i % 7) + extra }, { groups: [[0], [i], [0]], count: 8 }, { groups: [[0], [0], [i]], count: 5 + (i % 3) });
    if (i % 10 === 0) rankings.push({ groups: [[i], [i - 1], [0]], count: 4 });
  }
  return { model: 'bradley-terry', configs: Array.from({ length: m }, (_, i) => `c${i}`), rankings, games: rankings.reduce((s, r) => s + r.count, 0), anchor: 'c0' };
}

let fits: RatingFits | undefined;
afterEach(async () => {
  await fits?.close();
  fits = undefined;
});

describe('RatingFits', () => {
  it('fits a small problem in place: current at once, the numbers of solveRatings', async () => {
    fits = new RatingFits();
    const p = star(10);
    const got = await fits.get('q', 1, () => p, 0);
    expect(got).toMatchObject({ version: 1, current: true });
    expect(got!.ratings).toEqual(solveRatings(p));
  });

  it('a large fit on the thread: nothing before the first is ready, then the same numbers as in place; the event loop runs meanwhile', async () => {
    fits = new RatingFits({ inlineConfigs: 0 });
    const p = star(600);
    expect(await fits.get('q', 1, () => p, 0)).toBeUndefined();
    // While the thread fits, this thread's timers keep firing (a fit in place would hold them all).
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = Date.now();
    const got = await fits.get('q', 1, () => p, 30_000);
    const took = Date.now() - started;
    clearInterval(timer);
    expect(got).toMatchObject({ version: 1, current: true });
    expect(got!.ratings).toEqual(solveRatings(p));
    if (took > 50) expect(ticks).toBeGreaterThan(5);
  });

  it('newer data: the last fit is served at once, not current, until the new one lands; asked again and again, one fit runs and one waits', async () => {
    fits = new RatingFits({ inlineConfigs: 0 });
    let built = 0;
    const at = (extra: number) => () => (built++, star(300, extra));
    const first = await fits.get('q', 10, at(0), 30_000);
    expect(first).toMatchObject({ version: 10, current: true });
    const stale = await fits.get('q', 20, at(1), 0);
    expect(stale).toMatchObject({ version: 10, current: false });
    expect(stale!.ratings).toEqual(first!.ratings);
    // Versions 21..40 asked while 20 runs: only the newest is fitted after it.
    for (let v = 21; v <= 40; v++) await fits.get('q', v, at(v - 19), 0);
    const last = await fits.get('q', 40, at(21), 30_000);
    expect(last).toMatchObject({ version: 40, current: true });
    expect(last!.ratings).toEqual(solveRatings(star(300, 21)));
    // Cached now: a repeat costs no problem built.
    const before = built;
    expect(await fits.get('q', 40, at(0), 0)).toMatchObject({ version: 40, current: true });
    expect(built).toBe(before);
  });

  it('a bad anchor is a RangeError naming it, at once', async () => {
    fits = new RatingFits({ inlineConfigs: 0 });
    await expect(fits.get('q', 1, () => ({ ...star(50), anchor: 'nobody' }), 0)).rejects.toThrow(RangeError);
    await expect(fits.get('q', 1, () => ({ ...star(50), anchor: 'nobody' }), 0)).rejects.toThrow(/nobody/);
  });
});
