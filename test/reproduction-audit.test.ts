/**
 * The one-command audit (reproduction/scripts/audit.mjs, `npm run audit`): every check holds on the
 * repository as committed, and each kind of check fails when what it guards is changed — a doc's
 * figure, a stored result, a count in the summary, a history citation without its label, a claimed
 * word without a run, a finding marked tested that names no stored run. The changes are made on
 * copies (the audit's `files` overrides), found from the data rather than written here, so that a
 * new confirmation changes no line of this test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const root = new URL('../', import.meta.url);
// Scripts of the reproduction folder (plain ESM, untyped: imported by URL).
const { audit, rendered } = await import(new URL('reproduction/scripts/audit.mjs', root).href);

type Check = { group: string; subject: string; ok: boolean; detail: string };
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const json = (path: string) => JSON.parse(read(path));
/** The checks that fail with `files` changed: all of them, or only the `groups` a test is about (each audit reads every doc). */
const failures = async (files: Record<string, string>, groups?: string[]): Promise<Check[]> => (await audit({ files, groups })).checks.filter((c: Check) => !c.ok);
/** A number of a text made different: its last digit turned (9 to 0). */
const turned = (text: string) => text.replace(/(\d)(?!.*\d)/s, (d) => String((Number(d) + 1) % 10));
/** A sentence as a doc may wrap it: any run of spaces may be a line break. */
const wrapped = (sentence: string) => new RegExp(sentence.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
/** docs/lab.md with a section of its own at the end, so that nothing above labels or backs it. */
const withSection = (text: string) => ({ 'docs/lab.md': `${read('docs/lab.md')}\n## Added by the test\n\n${text}\n` });

const { checks } = await audit();

describe('the audit', () => {

  test('every check holds on the repository as committed', async () => {
    expect(checks.filter((c: Check) => !c.ok)).toEqual([]);
  });

  test('checks each kind of thing, every claim and every table both ways', async () => {
    const group = (g: string) => checks.filter((c: Check) => c.group === g);
    expect(group('figures')).toHaveLength(json('reproduction/inputs/claims.json').claims.length);
    // Each table strictly, the 2014 tables on coins too, and five totals.
    const tables = json('shared/src/lab/papers/published-tables.json') as { ties: string }[];
    expect(group('counts')).toHaveLength(tables.length + tables.filter((t) => t.ties === 'unstated').length + 5);
    for (const g of ['labels', 'findings', 'words', 'targets']) expect(group(g).length, g).toBeGreaterThan(0);
  });

  test.each(['docs/tournaments.md', 'docs/agents.md', 'docs/table-7.1-vp.md', 'REPRODUCTION.md'])('a stale figure in %s fails', async (doc) => {
    const claim = json('reproduction/inputs/claims.json').claims.find((c: { doc: string }) => c.doc === doc);
    const sentence = rendered(claim, { json: (p: string) => json(p), compared: new Map() });
    const text = read(doc);
    expect(text).toMatch(wrapped(sentence));
    const failed = await failures({ [doc]: text.replace(wrapped(sentence), (found) => turned(found)) }, ['figures']);
    expect(failed.map((c) => c.group)).toEqual(['figures']);
  });

  test('a stored result changed fails the summary counts and the figures drawn from it', async () => {
    // Thesis Table 7.4's first row that differs, given the paper's rate: it no longer differs.
    const path = 'reproduction/confirmation/thesis-7.4-iterations.json';
    const result = json(path);
    const table = (json('shared/src/lab/papers/published-tables.json') as { id: string; rows: { swept: Record<string, number>; paper: [number, number] }[] }[]).find((t) => t.id === 'thesis-7.4')!;
    const row = table.rows[0];
    const cell = result.cells.find((c: { swept: Record<string, number> }) => Object.entries(row.swept).every(([k, v]) => c.swept[k] === v));
    cell.roles[0].wins = Math.round((row.paper[0] / 100) * cell.roles[0].games);
    const groups = new Set((await failures({ [path]: JSON.stringify(result) }, ['counts', 'figures', 'findings'])).map((c) => c.group));
    expect(groups).toEqual(new Set(['counts', 'figures']));
  });

  test("a count of REPRODUCTION.md's summary changed fails", async () => {
    const text = read('REPRODUCTION.md').replace(/^(\| \*\*all\*\* \| no win \| \d+ \| )(\d+)/m, (_, head, n) => `${head}${Number(n) + 1}`);
    expect((await failures({ 'REPRODUCTION.md': text }, ['counts', 'figures'])).map((c) => c.subject.split(':')[0])).toEqual(['**all** | no win']);
  });

  test('a result without the lab’s clean-commit record, cited in a passage that does not call it history, fails', async () => {
    const manifest = json('reproduction/manifest.json') as { files: { path: string; code: unknown }[] };
    const unclean = manifest.files.find((e) => e.path.startsWith('reproduction/targets/') && [e.code].flat().some((c) => (c as { dirty?: boolean } | null)?.dirty !== false))!.path;
    const cited = (words: string) => withSection(`${words} (\`${unclean}\`).`);
    expect((await failures(cited('Measured on the lab'), ['labels', 'words'])).map((c) => c.group)).toEqual(['labels']);
    expect(await failures(cited('Measured on the lab (history)'), ['labels', 'words'])).toEqual([]);
  });

  test('"strongest", "reproduced" or "confirms" without a cited run fails, beside one holds', async () => {
    const added = withSection;
    const groups = ['labels', 'words'];
    expect((await failures(added('This agent is the strongest.'), groups)).map((c) => c.group)).toEqual(['words']);
    expect((await failures(added('The table is reproduced.'), groups)).map((c) => c.group)).toEqual(['words']);
    expect(await failures(added('It confirms the paper (`reproduction/confirmation/thesis-7.4-iterations.json`).'), groups)).toEqual([]);
  });

  test('a finding marked tested must name a stored run or the table’s own', async () => {
    const path = 'shared/src/lab/papers/published-reasons.json';
    const reasons = json(path);
    const [id] = Object.keys(reasons);
    reasons[id].cause = [{ text: 'a cause', tested: 'reproduction/targets/no-such-run.json' }];
    expect((await failures({ [path]: JSON.stringify(reasons) }, ['findings'])).map((c) => c.group)).toEqual(['findings']);
    reasons[id].cause = [{ text: 'a cause', tested: 'a run somewhere' }];
    expect((await failures({ [path]: JSON.stringify(reasons) }, ['findings'])).map((c) => c.group)).toEqual(['findings']);
  });

  test('a learning target whose stored tries no longer support LEARNING.md\'s verdict fails', async () => {
    const path = 'learning/strong/targets.json';
    const stored = json(path);
    // The network alone against two rulebased: its tries made to lose every game, so it is no longer met.
    for (const t of stored.sweeps.filter((x: { name: string }) => x.name.endsWith('policy-alone-vs-2-rulebased'))) {
      t.agents[0].wins = 0;
      if (t.dealScores) t.dealScores.wins = t.dealScores.wins.map(() => 0);
    }
    expect((await failures({ [path]: JSON.stringify(stored) }, ['targets'])).map((c) => c.group)).toEqual(['targets']);
    // A try from a tree with changes fails too.
    const dirty = json(path);
    dirty.sweeps[0].code.dirty = true;
    expect((await failures({ [path]: JSON.stringify(dirty) }, ['targets'])).map((c) => c.subject)).toEqual([`strong: ${dirty.sweeps[0].name} played from a clean commit`]);
  });
});
