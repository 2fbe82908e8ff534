/** The lab library: game plans, tournaments, statistics. */
export * from './stats.js';
export * from './setups.js';
export * from './game.js';
export * from './tournament.js';
export * from './run-games.js';
export * from './game-pool.js';
export * from './sweep.js';
export * from './aggregates.js';
