/**
 * The lab library, in rooms, each using only the ones listed before it:
 * - stats/   statistics of bounded cost: intervals, paired estimates, ratings, the ladder, SPRT, linear algebra
 * - game/    one game: setups (boards, seats), playing it, seat rotations, recorded search
 * - papers/  the papers' published tables and the verdict rule against them
 * - plan/    a sweep spec → cells × games, their schedule, limits, cost, stopping rules
 * - results/ the game codec, aggregates (increments written, summaries read), a sweep's statistics, provenance
 * - threads/ the game pool and its game threads, the rating-fit thread, their caches
 */
export * from './stats/stats.js';
export * from './stats/significance.js';
export * from './stats/target-claims.js';
export * from './stats/fit-statistics.js';
export * from './stats/sprt.js';
export * from './stats/ratings.js';
export * from './stats/ladder.js';
export * from './stats/rating-problem.js';

export * from './game/setups.js';
export * from './game/game.js';
export * from './game/tournament.js';

export * from './papers/published.js';
export * from './papers/paper-comparison.js';
export * from './papers/reproduction-summary.js';

export * from './plan/sweep.js';
export * from './plan/schedule.js';
export * from './plan/limits.js';
export * from './plan/cost.js';
export * from './plan/stopping.js';
export * from './plan/race.js';
export * from './plan/tune-steps.js';
export * from './tune/racing.js';
export * from './tune/space.js';
export * from './tune/spsa.js';
export * from './tune/ntbea.js';

export * from './results/labels.js';
export * from './results/increments.js';
export * from './results/summaries.js';
export * from './results/pooling.js';
export * from './results/head-to-head.js';
export * from './results/sweep-statistics.js';
export * from './results/summary-table.js';
export * from './results/throughput.js';
export * from './results/provenance.js';
export * from './results/training-rows.js';
export * from './results/training-archive.js';
export * from './results/npz.js';

export * from './threads/run-games.js';
export * from './threads/game-messages.js';
export * from './threads/game-pool.js';
export * from './threads/rating-fits.js';
export * from './threads/latest-cache.js';
export * from './threads/thread-client.js';

export * from './play/table.js';
export * from './play/messages.js';
export * from './play/tables.js';
export * from './play/view.js';
