export * from './config.js';
export * from './game-worker.js';
