/**
 * Worker thread of SweepStatistics (statistics.ts): reads a sweep's aggregates from Redis itself
 * and sends back its statistics (a page of them, or its configurations against each other) as JSON
 * text, so that neither the reading of a large aggregate
 * hash (a 1000-cell sweep's is ~100,000 fields) nor the pooling, nor the rating fit, nor the JSON
 * of megabytes runs on the coordinator's event loop.
 */
import { workerData } from 'node:worker_threads';
import { groupAggregateTable, headToHeadAndRatings, serveRequests, sweepStatistics } from '@wonderlab/shared';
import { SweepStore, connectRedisFailFast, within } from '@wonderlab/shared/store';
import type { StatisticsRequest, StatisticsThreadData } from './statistics.js';

const data = workerData as StatisticsThreadData;
const redis = connectRedisFailFast(data.redisUrl, data.commandTimeoutMs);
// Errors reach the requests that fail (a 503 for the caller); the connection retries by itself.
redis.on('error', () => {});
const store = new SweepStore(redis, data.prefix);

serveRequests(async (request: StatisticsRequest) => {
  const { id } = request;
  // A fail-fast connection refuses commands until it is up: a short wait after the thread's start
  // or a reconnect, as the API's own connection gets at the coordinator's start.
  if (redis.status !== 'ready') await within(new Promise((resolve) => redis.once('ready', resolve)), 2000);
  const loaded = await store.reads.load(id);
  if (!loaded) throw new Error(`no sweep '${id}'`);
  if (request.kind === 'versus') {
    const versus = headToHeadAndRatings(groupAggregateTable(await store.reads.aggregateTable(id)), loaded.sweep, request.anchor);
    if (!versus) return JSON.stringify({ headToHead: null, ratings: null, note: 'fewer than two agent configurations: nothing to compare' });
    return JSON.stringify({
      headToHead: 'headToHead' in versus ? versus.headToHead : null,
      ...('headToHeadNote' in versus ? { note: versus.headToHeadNote } : {}),
      ratings: versus.ratings,
    });
  }
  const [table, stops] = await Promise.all([store.reads.aggregateTable(id), loaded.spec.stop || loaded.spec.tune ? store.reads.stopStates(id) : undefined]);
  const stats = sweepStatistics(table, loaded.sweep, { offset: request.offset, limit: request.limit });
  // A stopping sweep's cells carry their test: decision, games it took, statistic and trace.
  const cells = stops ? stats.cells.map((c) => ({ ...c, stopped: stops.get(c.index) ?? null })) : stats.cells;
  return JSON.stringify({ ...stats, cells });
});
