/**
 * The dashboard: static pages and scripts (no build step, no framework), chart.js and the box-plot
 * plugin from node_modules, and the presets of the papers' experiments. Mounted on the
 * coordinator's app by `wonderlab serve`, or served by its own process (main.ts) in front of the API.
 */
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

const require = createRequire(import.meta.url);
const PUBLIC_DIR = fileURLToPath(new URL('../../public', import.meta.url));
/** Page bodies (HTML fragments); `layout` adds the shared head and navigation. */
const PAGES_DIR = fileURLToPath(new URL('../../pages', import.meta.url));
/** The repository's presets/ folder (one sweep spec per published experiment). */
export const DEFAULT_PRESETS_DIR = fileURLToPath(new URL('../../../../presets', import.meta.url));

/**
 * The scripts served from node_modules, by the name a page asks for. A Map, not an object: the name
 * comes from the URL, and an object would answer '__proto__' or 'constructor' with what it inherits.
 */
const VENDOR = new Map<string, string>([
  ['chart.umd.min.js', join(dirname(require.resolve('chart.js')), 'chart.umd.min.js')],
  ['chartjs-chart-boxplot.umd.min.js', join(dirname(require.resolve('@sgratzl/chartjs-chart-boxplot')), 'index.umd.min.js')],
]);

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

const FAVICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%230b4f8a'/%3E%3C/svg%3E";

/** A page: the shared head and navigation around a body file whose first line names its title. */
function layout(file: string): string {
  const text = readFileSync(join(PAGES_DIR, file), 'utf8');
  const title = /^<!-- title: (.*) -->/.exec(text)?.[1] ?? 'Wonderlab';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Wonderlab</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="${FAVICON}">
</head>
<body>
<header class="top">
  <a class="brand" href="/">Wonderlab</a>
  <nav aria-label="Main"><a href="/">Sweeps</a> &nbsp; <a href="/submit">New sweep</a> &nbsp; <a href="/compare">Compare</a> &nbsp; <a href="/ladder">Ladder</a> &nbsp; <a href="/play">Play</a> &nbsp; <a href="/api/openapi.json">API</a></nav>
</header>
${text.replace(/^<!-- title: .* -->\n/, '')}</body>
</html>
`;
}

export function dashboardRouter(o: DashboardOptions = {}): express.Router {
  const router = express.Router();
  const pages = new Map<string, string>();
  const page = (file: string) => (_req: express.Request, res: express.Response) => {
    if (!pages.has(file)) pages.set(file, layout(file));
    res.type('html').send(pages.get(file));
  };
  router.get('/', page('index.html'));
  router.get('/submit', page('submit.html'));
  router.get('/sweeps/:id', page('sweep.html'));
  router.get('/compare', page('compare.html'));
  router.get('/ladder', page('ladder.html'));
  router.get('/sweeps/:id/games/:gameId', page('game.html'));
  router.get('/play', page('play.html'));
  router.get('/play/:id', page('play.html'));
  router.get('/play/:id/replay', page('game.html'));
  router.use('/static', express.static(PUBLIC_DIR, { index: false, maxAge: '1m', extensions: [] }));
  router.get('/vendor/:file', (req, res) => {
    const path = VENDOR.get(req.params.file);
    if (path) res.sendFile(path, { maxAge: '1d' });
    else res.status(404).json({ error: `no such vendor script (served: ${[...VENDOR.keys()].join(', ')})` });
  });
  router.get('/dashboard/presets.json', (_req, res) => {
    res.json(loadPresets(o.presetsDir ?? DEFAULT_PRESETS_DIR));
  });
  return router;
}
