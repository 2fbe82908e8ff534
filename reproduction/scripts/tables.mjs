// The markdown of a paper table against one stored result, and of the summary over the tables:
// shared by report.mjs (the confirmation run, REPRODUCTION.md) and history.mjs (the earlier runs,
// history.md), so that both print a row, a verdict and a count the same way.
import { existsSync, readFileSync } from 'node:fs';
import { VERDICT_ALPHA, compareStoredOnCoins } from '../../shared/dist/src/index.js';

export const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pct = (x) => (x === null ? '–' : fmt(100 * x));
const signed = (x) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(100 * x))}`;
// Five decimals near α, so that a p just under it (0.04998) does not print as 0.050.
const pValue = (p) => (p < 0.001 ? '< 0.001' : Math.abs(p - VERDICT_ALPHA) < 0.0005 ? p.toFixed(5) : p.toFixed(3));
const counted = (c) => `${c.agrees} agree, ${c.inconclusive} inconclusive, ${c.differs} differ`;

/** A stored result `<preset>.json` of a folder (a URL ending in /), or undefined when there is none. */
export function readResult(folder, preset) {
  const path = new URL(`${preset}.json`, folder);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** Seconds as the headings give them: hours past one hour, else minutes. */
export const duration = (s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${Math.round(s / 60)} min`);

/** What each table varies, for the summary's first column (the titles are too long for it). */
const TOPICS = {
  'thesis-7.1': 'seating order',
  'thesis-7.2': 'exploration constant C',
  'thesis-7.3': 'simulation depth',
  'thesis-7.4': 'iterations per decision',
  'thesis-7.5': 'MCTS against MCTS',
  'robilliard-2': 'MCTS against two rule-based',
  'robilliard-3': 'K_UCT, MCTS against MCTS',
  'robilliard-4': 'N against 2N simulations',
  'robilliard-5': 'progressive widening',
  'robilliard-6': 'real-score bias',
};

/** "Thesis 7.4: iterations per decision" from a table's id. */
export function shortName(table) {
  const name = table.id.startsWith('thesis-') ? `Thesis ${table.id.slice('thesis-'.length)}` : `2014 Table ${table.id.split('-')[1]}`;
  return TOPICS[table.id] ? `${name}: ${TOPICS[table.id]}` : name;
}

/**
 * A table's rows against ours (comparePaper's `comparison`), one markdown line each; a row
 * without games says `missing` (the report's "confirmation pending", the history's "not run").
 * With `onCoins` (the same rows with VP ties decided on coins, for a paper that does not say how
 * it counts a tie) each line gives that count's rate, difference and verdict too, and a row's
 * reason shows when either count finds it different. `reasons` false leaves the reason column out
 * (the history's: the reasons are findings about the confirmation's rows).
 */
export function rowLines(table, comparison, missing, onCoins, { reasons = true } = {}) {
  const hasVp = table.rows.some((r) => r.vp !== undefined);
  const coinHead = 'ours, VP ties on coins | ours − paper, ties on coins | verdict, ties on coins |';
  const lines = [
    `| row | paper win % | ours win % (95 %) | games | ${hasVp ? 'paper VP | ours VP | ' : ''}ours − paper (95 %) | p (Holm) | verdict |${onCoins ? ` ${coinHead.trim()}` : ''}${reasons ? ' reason, if it differs (see "Why rows differ") |' : ''}`,
    `| --- | --- | --- | --- | ${hasVp ? '--- | --- | ' : ''}--- | --- | --- |${onCoins ? ' --- | --- | --- |' : ''}${reasons ? ' --- |' : ''}`,
  ];
  const verdictOf = (row) => (row.verdict === 'differs' ? `**differs**` : row.verdict);
  const differenceOf = (d) => `${signed(d.estimate)} (${signed(d.low)} to ${signed(d.high)})`;
  comparison.rows.forEach((row, i) => {
    const paper = `${pct(row.paper.winRate)} ± ${pct(row.paper.halfWidth)}`;
    const vp = (o) => (hasVp ? `${fmt(row.paper.vp ?? NaN)} | ${o} | ` : '');
    const coins = onCoins?.rows[i];
    if (!row.ours) {
      lines.push(`| ${row.label} | ${paper} | ${missing} | – | ${vp('–')}– | – | ${missing} |${onCoins ? ' – | – | – |' : ''}${reasons ? ' |' : ''}`);
      return;
    }
    const coinCells = coins ? ` ${pct(coins.ours.winRate)} ± ${pct(coins.ours.halfWidth)} | ${coins.difference ? differenceOf(coins.difference) : '–'} | ${verdictOf(coins)} |` : '';
    const reason = reasons ? ` ${row.reason ?? coins?.reason ?? ''} |` : '';
    const d = row.difference;
    lines.push(
      `| ${row.label} | ${paper} | ${pct(row.ours.winRate)} ± ${pct(row.ours.halfWidth)} | ${row.ours.games} | ${vp(fmt(row.ours.vp ?? NaN))}${d ? differenceOf(d) : '–'} | ${d ? pValue(d.pHolm) : '–'} | ${verdictOf(row)} |${coinCells}${reason}`,
    );
  });
  return lines;
}

/**
 * One line on how a table whose paper counts ties strictly (the thesis) would read with VP ties
 * decided on coins instead (rulebookRowFromCells), for comparison only; undefined where some row
 * cannot be told.
 */
export function rulebookLine(table, result, strict) {
  const rulebook = compareStoredOnCoins(table, result);
  if (!rulebook) return undefined;
  const pairs = strict.rows.map((s, i) => [s, rulebook.rows[i]]).filter(([s]) => s.ours);
  if (pairs.length === 0) return undefined;
  const shifts = pairs.map(([s, r]) => 100 * (r.ours.winRate - s.ours.winRate));
  return (
    `Counted by the rulebook instead (a VP tie goes to the seat with more coins; not the thesis's count, shown for comparison): ` +
    `the rates rise by ${fmt(Math.min(...shifts))}–${fmt(Math.max(...shifts))} points; ${counted(rulebook)} (counted strictly: ${counted(strict)}).`
  );
}

/** How a summary line counts a tie for the most VP. */
const STRICT_AS_PAPER = 'no win (the thesis\'s rule)';
const STRICT = 'no win';
const ON_COINS = 'to more coins';

/**
 * The summary: one line per paper table (summarizeTable's), a second with VP ties on coins for a
 * table whose paper does not say how it counts them, and the totals both ways. `missing` names
 * the column of rows without games ("pending" in the report, "not run" in the history), shown
 * only when some row has none; `causes` false leaves the cause column out (the history's).
 */
export function summaryLines(summaries, missing, { causes = true } = {}) {
  const lines = summaries.flatMap((s) => [
    { ...s, ties: s.ties === 'strict' ? STRICT_AS_PAPER : STRICT },
    ...(s.onCoins ? [{ ...s, ...s.onCoins, ties: ON_COINS, cause: s.onCoins.differs ? 'as above' : null }] : []),
  ]);
  const strictly = lines.filter((l) => l.ties !== ON_COINS);
  // The thesis's tables as it counts, the 2014 paper's on coins: only when every 2014 table has that line.
  const eachPapers = summaries.every((s) => s.ties === 'strict' || s.onCoins) ? lines.filter((l) => l.ties !== STRICT) : [];
  const sum = (ls, k) => ls.reduce((a, s) => a + s[k], 0);
  const any = sum(strictly, 'notRun') > 0;
  const games = (g) => (!g ? '–' : g.min === g.max ? String(g.min) : `${g.min}–${g.max}`);
  const cause = (c) => (causes ? ` ${c ?? '–'} |` : '');
  const out = [
    `| paper table | a tie for the most VP | rows | agree | inconclusive | differ | ${any ? `${missing} | ` : ''}games per row |${causes ? ' main cause of the differences |' : ''}`,
    `| --- | --- | --- | --- | --- | --- | ${any ? '--- | ' : ''}--- |${causes ? ' --- |' : ''}`,
  ];
  for (const l of lines) out.push(`| ${l.name} | ${l.ties} | ${l.rows} | ${l.agrees} | ${l.inconclusive} | ${l.differs} | ${any ? `${l.notRun} | ` : ''}${games(l.games)} |${cause(l.cause)}`);
  const total = (label, ties, ls) => `| **${label}** | ${ties} | ${sum(ls, 'rows')} | ${sum(ls, 'agrees')} | ${sum(ls, 'inconclusive')} | ${sum(ls, 'differs')} | ${any ? `${sum(ls, 'notRun')} | ` : ''} |${causes ? ' |' : ''}`;
  // Each paper's rows, then all of them: strictly, and each paper's own way where it has one line more.
  const thesis = (l) => l.id.startsWith('thesis-');
  out.push(total('the thesis', STRICT_AS_PAPER, strictly.filter(thesis)));
  out.push(total('the 2014 paper', STRICT, strictly.filter((l) => !thesis(l))));
  if (eachPapers.length) out.push(total('the 2014 paper', ON_COINS, lines.filter((l) => l.ties === ON_COINS)));
  out.push(total('all', STRICT, strictly));
  if (eachPapers.length) out.push(total('all', 'the thesis\'s rule; the 2014 paper\'s on coins', eachPapers));
  out.push(
    '',
    'Rows of one table can share games (a pair\'s two seats in the 2014 Tables 3–6, Table 7.1\'s averages): each is counted, ' +
      'and Holm holds whatever the dependence. The 2014 paper does not say how it counts a tie for the most VP, so its tables are counted both ways, ' +
      'each way by the same rule with its own Holm family ("How the numbers were made").' +
      (causes ? ' Each cause is marked *tested*, with the run and figure that tested it, or *not tested*.' : ''),
    '',
  );
  return out;
}
