/**
 * The dashboard: static pages and scripts (no build step, no framework), chart.js and the box-plot
 * plugin from node_modules, and the presets of the papers' experiments. Mounted on the
 * coordinator's app in embedded mode, or served by its own process (main.ts) in front of the API.
 */
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

const require = createRequire(import.meta.url);
const PUBLIC_DIR = fileURLToPath(new URL('../../public', import.meta.url));
/** The repository's presets/ folder (one sweep spec per published experiment). */
export const DEFAULT_PRESETS_DIR = fileURLToPath(new URL('../../../../presets', import.meta.url));

const VENDOR: Record<string, string> = {
  'chart.umd.min.js': join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'),
  'chartjs-chart-boxplot.umd.min.js': join(dirname(require.resolve('@sgratzl/chartjs-chart-boxplot')), 'index.umd.min.js'),
};

export interface Preset {
  id: string;
  name: string;
  spec: unknown;
}

/** Every `*.json` spec in `dir`, by file name. */
export function loadPresets(dir: string): Preset[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const spec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { name?: string };
    return { id: file.replace(/\.json$/, ''), name: spec.name ?? file, spec };
  });
}

export interface DashboardOptions {
  presetsDir?: string;
}

export function dashboardRouter(o: DashboardOptions = {}): express.Router {
  const router = express.Router();
  const page = (file: string) => (_req: express.Request, res: express.Response) => res.sendFile(join(PUBLIC_DIR, file));
  router.get('/', page('index.html'));
  router.get('/submit', page('submit.html'));
  router.get('/sweeps/:id', page('sweep.html'));
  router.get('/sweeps/:id/games/:gameId', page('game.html'));
  router.use('/static', express.static(PUBLIC_DIR, { index: false, maxAge: '1m' }));
  router.get('/vendor/:file', (req, res, next) => {
    const path = VENDOR[req.params.file];
    if (path) res.sendFile(path, { maxAge: '1d' });
    else next();
  });
  router.get('/dashboard/presets.json', (_req, res) => {
    res.json(loadPresets(o.presetsDir ?? DEFAULT_PRESETS_DIR));
  });
  return router;
}
