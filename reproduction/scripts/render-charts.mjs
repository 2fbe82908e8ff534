#!/usr/bin/env node
// The report's charts:
//
//   node reproduction/scripts/render-charts.mjs          # one SVG per paper table, from the confirmation results
//   node reproduction/scripts/render-charts.mjs --png    # also the earlier runs' PNGs (history.md)
//
// The SVGs (charts/<preset>.svg, embedded in REPRODUCTION.md under each table's heading) are drawn
// by report.mjs's chartOf from the same comparison as the table's rows, pending tables included,
// so a chart is never made by hand nor from other data (test/reproduction-report.test.ts).
// The PNGs are the dashboard's own charts (charts.js, chart.js) of the earlier runs
// (reproduction/in-sample/), drawn in Debian's chromium (CHROMIUM_PATH to use another).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLISHED_TABLES, comparePaper, parameterByKey, rowFromCells } from '../../shared/dist/src/index.js';
import { CONFIRMATION, chartOf, chartPath } from './report.mjs';
import { readResult } from './tables.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const written = [];
for (const table of PUBLISHED_TABLES) {
  writeFileSync(join(root, chartPath(table)), chartOf(table, readResult(CONFIRMATION, table.preset)));
  written.push(chartPath(table));
}
if (process.argv.includes('--png')) written.push(...(await dashboardCharts()));
console.log(written.join('\n'));

/** The dashboard's charts of every earlier result, as PNG files; their paths from the root. */
async function dashboardCharts() {
  const { chromium } = await import('playwright-core');
  const require = createRequire(join(root, 'services/dashboard/package.json'));
  const vendor = [
    join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'),
    join(dirname(require.resolve('@sgratzl/chartjs-chart-boxplot')), 'index.umd.min.js'),
  ];
  const chartsSource = readFileSync(join(root, 'services/dashboard/public/js/charts.js'), 'utf8');
  const resultsDir = join(root, 'reproduction/in-sample');

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 900, height: 520 }, deviceScaleFactor: 1 });
  const written = [];
  for (const file of readdirSync(resultsDir).filter((f) => f.endsWith('.json')).sort()) {
    const detail = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    const preset = file.replace(/\.json$/, '');
    // The parameter curves are the lab's (lab.mjs collect saves them); results of the first version,
    // played without the lab, keep the charts they had.
    // Results saved before series carried their parameter's name get it from the parameter table.
    const series = (detail.parameters ?? [])
      .filter((p) => !p.key.startsWith('matchup.'))
      .map((p) => {
        const def = parameterByKey(p.key.replace(/^seats\.\d+\./, ''));
        return { name: def?.name ?? p.key, meaning: def?.meaning ?? '', numeric: p.points.every((x) => typeof x.value === 'number'), ...p };
      });
    // The paper's rows beside ours, as the sweep page draws them.
    const table = PUBLISHED_TABLES.find((t) => t.preset === preset);
    const paper = table && comparePaper(table, (row) => rowFromCells(detail.cells, row));
    const charts = [
      ...series.flatMap((p) => [
        { name: `${preset}-${p.key.replace(/[^A-Za-z0-9]+/g, '-')}`, series: p, kind: 'win' },
        { name: `${preset}-${p.key.replace(/[^A-Za-z0-9]+/g, '-')}-vp`, series: p, kind: 'vp' },
      ]),
      { name: `${preset}-vp`, series: null },
    ];
    for (const chart of charts) {
      await page.setContent('<html><body style="margin:0;background:#fff"><div style="width:880px;height:500px;padding:10px"><canvas id="c"></canvas></div></body></html>');
      for (const path of vendor) await page.addScriptTag({ path });
      await page.evaluate(
        async ({ source, detail, series, kind, paper }) => {
          // The page's globals: its document, and Chart.js with its box-plot plugin (the script tags above).
          const { document, Chart, ChartBoxPlot } = /** @type {any} */ (globalThis);
          const m = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
          Chart.register(m.errorBarsPlugin, ChartBoxPlot.BoxPlotController, ChartBoxPlot.BoxAndWiskers);
          const config = !series ? m.vpBoxplot(detail, 'all') : kind === 'vp' ? m.parameterVpChart(series, paper) : m.parameterChart(series, paper);
          config.options.plugins.title = { display: true, text: `${detail.spec.name}${series ? '' : ': victory points'}` };
          // A chart of a row per box (the VP box plots) as tall as its rows need, as on the dashboard.
          const rows = m.rowsHeight(config);
          if (rows !== null) document.querySelector('div').style.height = `${Math.max(500, rows)}px`;
          new Chart(document.getElementById('c'), config);
        },
        { source: chartsSource, detail, series: chart.series, kind: chart.kind, paper },
      );
      const out = join(root, 'reproduction/charts', `${chart.name}.png`);
      await page.locator('div').screenshot({ path: out });
      written.push(out.replace(root, ''));
    }
  }
  await browser.close();
  return written;
}
