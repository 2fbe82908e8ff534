#!/usr/bin/env node
// The manifest of the result files README.md, REPRODUCTION.md, reproduction/history.md and docs/*.md cite
// (manifest.json): for each, the sweep, the code version and dirty flag the lab reported for it,
// its seeds and games, so a reader can tell what every cited number was played from without
// opening the files.
//
//   node reproduction/scripts/manifest.mjs      # rewrites manifest.json
//
// The confirmation run's results (confirmation/) are the report and must each name a clean
// commit reported by the lab (test/reproduction-manifest.test.ts). Every other stored result is
// history, listed as it is: most were saved before collectors kept the lab's record, so `code`
// is null there, or its commit is known without its dirty flag, and `stamped` is the commit a
// collector wrote from its own checkout, which need not be the code that played.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);
const root = new URL('..', here);

/** The folders of result files (under reproduction/): the confirmation's first, then history. */
export const RESULT_FOLDERS = ['confirmation/', 'in-sample/', 'targets/', 'fit/results/'];
/** The documents whose citations the manifest covers. */
// Every doc under docs/ too: the README's research notes moved there (issue 43) with their citations.
export const CITING = [
  'README.md',
  'REPRODUCTION.md',
  'reproduction/history.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const FOLDER = /^reproduction\/(confirmation|in-sample|targets|fit\/results)\/$/;

/** Every result file, as `reproduction/<folder><name>`. */
export function resultFiles() {
  return RESULT_FOLDERS.flatMap((dir) =>
    existsSync(new URL(dir, here)) ? readdirSync(new URL(dir, here)).filter((f) => f.endsWith('.json')).sort().map((f) => `reproduction/${dir}${f}`) : [],
  );
}

/** A citation as a pattern: `<preset>` and an elided start (`…-b.json`) match any name. */
const patternOf = (text) => new RegExp(`^${text.split(/<[^>]*>|…|\*/).map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);

/**
 * The result files a document cites, with the citations that match none: a path under
 * reproduction/ (a file, a pattern with `*`, `<preset>` or `…`, or a whole result folder), or a
 * bare file name matching a result file (a name that matches none is taken for another JSON file,
 * such as a spec or a request body).
 */
export function citations(text, files = resultFiles()) {
  const cited = new Set();
  const dangling = [];
  for (const [token] of text.matchAll(/reproduction\/[\w./<>*…-]*\/(?![\w.<>*…-])|[\w./<>*…-]*[\w<>*-]\.json/g)) {
    if (FOLDER.test(token)) {
      for (const f of files.filter((f) => f.startsWith(token) && !f.slice(token.length).includes('/'))) cited.add(f);
      continue;
    }
    if (!token.endsWith('.json')) continue;
    const underResults = RESULT_FOLDERS.some((dir) => token.startsWith(`reproduction/${dir}`));
    if (token.includes('/') && !underResults) continue;
    const pattern = patternOf(token.includes('/') ? token : `reproduction/*/${token}`);
    const hits = files.filter((f) => pattern.test(f) || (!token.includes('/') && patternOf(token).test(f.slice(f.lastIndexOf('/') + 1))));
    for (const f of hits) cited.add(f);
    if (hits.length === 0 && underResults) dangling.push(token);
  }
  return { cited: [...cited].sort(), dangling };
}

/**
 * One file's entry. Its provenance is read from whichever record the collector of its day kept:
 * `provenance` (a sweep, or `parts` of a merged one) as collectors keep it now; h2h.mjs's and
 * cells.mjs's earlier `commit` (the lab's, without its dirty flag); lab.mjs's and fit.mjs's
 * earlier `lab.commit` / `commit`, the collecting checkout's HEAD (kept as `stamped`).
 */
export function entryOf(path) {
  const r = JSON.parse(readFileSync(new URL(path, root), 'utf8'));
  const role = path.startsWith('reproduction/confirmation/') ? 'confirmation' : 'history';
  const parts = r.provenance ? (r.provenance.parts ?? [r.provenance]) : undefined;
  const seeds = r.spec?.deals ? { firstSeed: r.spec.deals.firstSeed ?? 1, deals: r.spec.deals.count } : null;
  if (parts) {
    const code = (p) => (p?.code?.commit ? { commit: p.code.commit, dirty: p.dirty } : null);
    return {
      path,
      role,
      sweeps: parts.map((p) => p?.sweep ?? null),
      code: parts.length === 1 ? code(parts[0]) : parts.map(code),
      seeds,
      games: parts.reduce((t, p) => t + (p?.games ?? 0), 0),
      wallSeconds: parts.reduce((t, p) => t + (p?.wallSeconds ?? 0), 0),
      cpuSeconds: parts.some((p) => p?.cpuSeconds == null) ? null : parts.reduce((t, p) => t + p.cpuSeconds, 0),
    };
  }
  // Before provenance records: a full hash came from the lab (h2h.mjs, cells.mjs), a short one from a checkout.
  const commit = r.lab?.commit ?? r.commit;
  const fromLab = typeof commit === 'string' && /^[0-9a-f]{40}$/.test(commit);
  return {
    path,
    role,
    sweeps: [r.lab?.sweep ?? r.id ?? null],
    code: fromLab ? { commit, dirty: null } : null,
    ...(commit && !fromLab ? { stamped: commit } : {}),
    seeds,
    games: r.lab?.games ?? r.gamesPlayed ?? (r.cells?.every((c) => typeof c.games === 'number') ? r.cells.reduce((t, c) => t + c.games, 0) : null),
    wallSeconds: r.lab?.wallSeconds ?? r.wallSeconds ?? null,
    cpuSeconds: r.cpuSeconds ?? null,
  };
}

/**
 * Why an entry cannot be cited as a result of the report: its code version is not the lab's,
 * not known clean, or (a confirmation result) its deals are not the held-out ones. Empty: fine.
 */
export function unconfirmed(entry, confirmationSeed) {
  const problems = [];
  const codes = Array.isArray(entry.code) ? entry.code : [entry.code];
  if (codes.some((c) => !c?.commit)) problems.push('no code version reported by the lab');
  else if (codes.some((c) => c.dirty !== false)) problems.push(codes.some((c) => c.dirty) ? 'played from uncommitted code' : 'dirty flag not recorded');
  if (entry.seeds?.firstSeed !== confirmationSeed) problems.push(`first seed ${entry.seeds?.firstSeed}, not the confirmation's ${confirmationSeed}`);
  return problems;
}

/** The manifest: every cited result file and every confirmation result. */
export function buildManifest() {
  const files = resultFiles();
  const cited = new Set(CITING.flatMap((doc) => citations(readFileSync(new URL(doc, root), 'utf8'), files).cited));
  for (const f of files) if (f.startsWith('reproduction/confirmation/')) cited.add(f);
  return {
    about:
      'The result files README.md, REPRODUCTION.md, reproduction/history.md and docs/*.md cite, and every confirmation result (node reproduction/scripts/manifest.mjs). code: the commit and dirty flag the lab reported for the sweep (dirty null: not recorded), null where the file kept none; stamped: a commit the collector took from its own checkout, not the lab\'s. role confirmation: the held-out run the report is made from; history: earlier runs.',
    files: [...cited].sort().map(entryOf),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const manifest = buildManifest();
  writeFileSync(new URL('manifest.json', here), JSON.stringify(manifest, null, 1) + '\n');
  const lab = manifest.files.filter((e) => e.code && !Array.isArray(e.code)).length;
  console.log(`${manifest.files.length} files, ${lab} with the lab's code version, ${manifest.files.filter((e) => e.role === 'confirmation').length} of the confirmation`);
}
