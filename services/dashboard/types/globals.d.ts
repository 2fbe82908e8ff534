// What the dashboard's pages load as classic scripts before its modules (/vendor/…): Chart.js and
// its box-plot plugin, as globals.
import type { Chart as ChartClass } from 'chart.js';
import type { BoxAndWiskers, BoxPlotController } from '@sgratzl/chartjs-chart-boxplot';

declare global {
  interface Window {
    Chart: typeof ChartClass;
    ChartBoxPlot?: { BoxPlotController: typeof BoxPlotController; BoxAndWiskers: typeof BoxAndWiskers };
  }
}
