/**
 * The replay page of one game in a real browser (Debian's chromium, see dashboard.test.ts)
 * against a real lab: every step shows each seat's running score, and every MCTS move what its
 * search found, as the timeline API gives them. Screenshots go to test-artifacts/replay/.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, waitForSweep, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests, submitSweep } from './browser.js';

const browser = new BrowserTests('replay');
const CATEGORIES = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'];

/** One game: an MCTS seat (one tree), a PIMC one (votes) and a rule-based one. */
const SPEC = { name: 'Replay test', players: 3, seats: ['mcts:40', 'mcts(it=30,det=pimc,worlds=3)', 'rulebased'], deals: { count: 1 } };

let lab: TestLab;
let sweepId = '';

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 1 });
      sweepId = await submitSweep(lab, SPEC);
      await waitForSweep(lab, sweepId, 60_000);
    }),
  90_000,
);

afterAll(() => browser.close(), 30_000);

/** What a seat's cell should say of its score: the total, then the categories that score. */
function scoreText(score: Record<string, number>): string {
  const parts = CATEGORIES.filter((c) => score[c] !== 0).map((c) => `${c} ${score[c]}`);
  return `${score.total} VP${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

const sameMove = (a: any, b: any) => ['card', 'age', 'action', 'payLeft', 'payRight'].every((k) => a[k] === b[k]);

interface ShownCell {
  move: string;
  score: string;
  effort: string | null;
  items: { text: string; chosen: boolean }[];
}

test('the replay shows every seat’s running score after each step and, beside each MCTS move, its search', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const gameId = (await api(lab.url, `/api/sweeps/${sweepId}/games?offset=0&limit=1`)).body.items[0].id;
  const game = (await api(lab.url, `/api/sweeps/${sweepId}/games/${gameId}`)).body;
  const timeline = await api(lab.url, `/api/sweeps/${sweepId}/games/${gameId}/timeline`);
  expect(timeline.status).toBe(200);
  const steps = timeline.body.steps as any[];

  await page.goto(`${lab.url}/sweeps/${sweepId}/games/${gameId}`);
  await page.waitForSelector('#turns tbody tr');
  const shown: ShownCell[][] = await page.$$eval('#turns tbody tr', (rows) =>
    rows.map((tr) =>
      [...tr.querySelectorAll('td.seat-cell')].map((td) => ({
        move: td.firstElementChild?.textContent ?? '',
        score: td.querySelector('.running-score')?.textContent ?? '',
        effort: td.querySelector('.search-effort')?.textContent ?? null,
        items: [...td.querySelectorAll('.search li')].map((li) => ({ text: li.textContent ?? '', chosen: li.classList.contains('chosen') })),
      })),
    ),
  );
  expect(shown.length).toBe(steps.length);

  let searches = 0;
  let votes = 0;
  steps.forEach((step, i) => {
    game.players.forEach((p: any, q: number) => {
      const cell = shown[i][q];
      const where = `step ${i}, seat ${q} (${p.agent})`;
      expect(cell.score, where).toBe(scoreText(step.scores[q]));
      const move = step.moves.find((m: any) => m.seat === q);
      if (!p.agent.startsWith('mcts')) expect(move?.search, where).toBeUndefined();
      if (!move?.search) {
        expect(cell.effort, where).toBeNull();
        expect(cell.items, where).toEqual([]);
        return;
      }
      searches++;
      const { search } = move;
      expect(cell.effort, where).toBe(`search: ${search.iterations} iterations, ${search.ms} ms`);
      expect(cell.items.length, where).toBe(search.moves.length);
      search.moves.forEach((m: any, k: number) => {
        const item = cell.items[k];
        expect(item.text, `${where}, move ${k}`).toContain(m.move.card);
        expect(item.text, `${where}, move ${k}`).toContain(`${m.visits} visits · mean ${m.value.toFixed(3)}`);
        if (m.votes !== undefined) {
          expect(item.text, `${where}, move ${k}`).toContain(`${m.votes} votes`);
          votes++;
        }
        expect(item.chosen, `${where}, move ${k}: marked as played`).toBe(sameMove(m.move, move));
      });
      expect(cell.items.filter((x) => x.chosen), `${where}: one move marked`).toHaveLength(1);
      expect(cell.items.find((x) => x.chosen)!.text.startsWith('▶ ')).toBe(true);
    });
  });
  // Seats 0 and 1 explain nearly all of their ~20 decisions; seat 2 (rulebased) none.
  expect(searches, 'MCTS moves shown with their search').toBeGreaterThan(30);
  expect(votes, 'the PIMC seat shows its trees’ votes').toBeGreaterThan(0);
  expect(game.players[2].agent).toBe('rulebased');

  // The last step's running scores are the final table's.
  const last = shown[shown.length - 1];
  game.players.forEach((p: any, q: number) => expect(last[q].score.startsWith(`${p.score.total} VP`)).toBe(true));

  await page.screenshot({ path: `${browser.artifacts}game.png`, fullPage: true });
  await page.locator('#turns tbody tr').first().screenshot({ path: `${browser.artifacts}first-step.png` });
  expect(browser.pageErrors).toEqual([]);
}, 60_000);
