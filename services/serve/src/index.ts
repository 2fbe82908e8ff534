/** `wonderlab serve`: the whole lab on one machine. */
export * from './embedded.js';
export * from './local-redis.js';
