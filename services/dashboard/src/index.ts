export * from './config.js';
export * from './dashboard.js';
