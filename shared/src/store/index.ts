/** The lab's Redis side: keys, scripts, the results store, the games queue, settings; the services' access log. */
export * from './access-log.js';
export * from './config.js';
export * from './keys.js';
export * from './lab-state.js';
export * from './redis.js';
export * from './outage.js';
export * from './play-store.js';
export * from './queue.js';
export * from './schema.js';
export * from './scripts.js';
export * from './sweep-store.js';
export * from './worker-roster.js';
