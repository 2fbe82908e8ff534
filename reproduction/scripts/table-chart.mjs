// A paper table as a chart: per row, the paper's win rate and ours, each with its 95 % interval,
// on one 0–100 % axis, and the row's verdict. Plain SVG written from comparePaper's comparison,
// the same one the table's markdown is printed from, so the chart cannot show other numbers than
// the table; no browser is needed to draw it (render-charts.mjs writes the files).

const WIDTH = 900;
const LABEL = 250; // the row labels' column
const PLOT = [LABEL + 10, WIDTH - 130]; // x of 0 % and 100 %
const TOP = 78;
const ROW = 30;
const PAPER = '#4a4a4a';
const OURS = '#d95f02';

const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// One decimal, so that the file is the same from run to run and platform to platform.
const n = (x) => (Math.round(x * 10) / 10).toString();
const xOf = (rate) => PLOT[0] + Math.min(1, Math.max(0, rate)) * (PLOT[1] - PLOT[0]);

/** One estimate with its interval at height y: a bar from low to high, a marker at the estimate. */
function estimate(y, rate, low, high, colour, marker) {
  const x = xOf(rate);
  const bar = `<line x1="${n(xOf(low))}" y1="${n(y)}" x2="${n(xOf(high))}" y2="${n(y)}" stroke="${colour}" stroke-width="2"/>`;
  const ends = [low, high].map((e) => `<line x1="${n(xOf(e))}" y1="${n(y - 4)}" x2="${n(xOf(e))}" y2="${n(y + 4)}" stroke="${colour}" stroke-width="2"/>`).join('');
  const dot = marker === 'square' ? `<rect x="${n(x - 4)}" y="${n(y - 4)}" width="8" height="8" fill="${colour}"/>` : `<circle cx="${n(x)}" cy="${n(y)}" r="4.5" fill="${colour}"/>`;
  return bar + ends + dot;
}

/**
 * The SVG of one table: `title` and `subtitle` on top (the table's name, where ours come from),
 * `missing` the word for a row without games (the report's "pending"). Ours are drawn with the
 * normal half-width the table prints, as the papers print theirs.
 */
export function tableChart(comparison, { title, subtitle, missing }) {
  const rows = comparison.rows;
  const height = TOP + rows.length * ROW + 40;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${escape(title)}</text>`,
    `<text x="10" y="41" fill="#333">${escape(subtitle)}</text>`,
    `<rect x="${PLOT[0]}" y="52" width="8" height="8" fill="${PAPER}"/><text x="${PLOT[0] + 14}" y="60">paper (95 %)</text>`,
    `<circle cx="${PLOT[0] + 124}" cy="56" r="4.5" fill="${OURS}"/><text x="${PLOT[0] + 134}" y="60">ours (95 %)</text>`,
    `<text x="${PLOT[1] + 12}" y="60" font-weight="bold">verdict</text>`,
  ];
  const bottom = TOP + rows.length * ROW;
  for (let t = 0; t <= 100; t += 10) {
    const x = n(xOf(t / 100));
    out.push(`<line x1="${x}" y1="${TOP - 6}" x2="${x}" y2="${bottom}" stroke="#e3e3e3"/>`, `<text x="${x}" y="${bottom + 16}" text-anchor="middle" fill="#333">${t}</text>`);
  }
  out.push(`<text x="${n((PLOT[0] + PLOT[1]) / 2)}" y="${bottom + 33}" text-anchor="middle" fill="#333">win rate of the row's agent, %</text>`);
  rows.forEach((row, i) => {
    const y = TOP + i * ROW + ROW / 2;
    if (i % 2 === 0) out.push(`<rect x="0" y="${n(y - ROW / 2)}" width="${WIDTH}" height="${ROW}" fill="#f6f6f6" fill-opacity="0.6"/>`);
    out.push(`<text x="${LABEL}" y="${n(y + 4)}" text-anchor="end">${escape(row.label)}</text>`);
    out.push(estimate(y - 5, row.paper.winRate, row.paper.low, row.paper.high, PAPER, 'square'));
    if (row.ours) {
      const { winRate, halfWidth } = row.ours;
      out.push(estimate(y + 5, winRate, winRate - halfWidth, winRate + halfWidth, OURS, 'circle'));
    }
    const verdict = row.ours ? row.verdict : missing;
    out.push(`<text x="${PLOT[1] + 12}" y="${n(y + 4)}"${verdict === 'differs' ? ' font-weight="bold"' : ''}${row.ours ? '' : ' fill="#777" font-style="italic"'}>${escape(verdict)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
