export * from './engine/index.js';
export * from './agents/index.js';
export * from './lab/index.js';
