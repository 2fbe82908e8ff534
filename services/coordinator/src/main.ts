/**
 * Entry point of a coordinator process: `node services/coordinator/dist/src/main.js`. SIGTERM
 * stops it within SHUTDOWN_CLOSE_MS whether Redis answers or not.
 */
import { pino } from 'pino';
import { staleBuild } from '@wonderlab/shared';
import { ConfigError, exitWithin } from '@wonderlab/shared/store';
import { coordinatorConfig } from './config.js';
import { ListenError, startCoordinator } from './server.js';

let config;
try {
  config = coordinatorConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`coordinator: ${err.message}`);
  process.exit(2);
}
// Its sweeps are stamped with the repository's commit: refuse to run code older than that.
const stale = staleBuild();
if (stale) {
  console.error(`coordinator: ${stale}`);
  process.exit(2);
}
const logger = pino({ level: config.LOG_LEVEL, base: { service: 'coordinator', pid: process.pid } });
const coordinator = await startCoordinator(config, logger).catch((err: unknown) => {
  if (!(err instanceof ListenError)) throw err;
  console.error(`coordinator: ${err.message}`);
  return process.exit(1);
});
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  exitWithin(config.SHUTDOWN_CLOSE_MS + 1000, logger);
  logger.info({ signal }, 'stopping');
  const clean = await coordinator.close();
  logger.info({ clean }, 'coordinator stopped');
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
