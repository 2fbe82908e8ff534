export * from './engine/index.js';
