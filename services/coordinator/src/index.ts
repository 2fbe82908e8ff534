export * from './config.js';
export * from './app.js';
export * from './feeder.js';
export * from './server.js';
export * from './views.js';
export * from './metrics.js';
export * from './openapi.js';
export * from './tune-driver.js';
