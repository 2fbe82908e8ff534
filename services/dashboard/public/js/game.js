// One game, replayed: final scores, then every step with each seat's move, payment, coins,
// military and the hand it chose from, its running score after the step, and beside an MCTS
// move what its search found.
import { agentName, el, fillTable, getJSON } from './api.js';
import { moveText, searchList } from './moves.js';

const parts = location.pathname.split('/').map(decodeURIComponent);
// A sweep's game (/sweeps/<id>/games/<gameId>) or a finished game of the play page (/play/<id>/replay).
const fromPlay = parts[1] === 'play';
const id = parts[2];
const gameId = fromPlay ? parts[2] : parts[4];
const gameUrl = fromPlay ? `/api/play/${id}/game` : `/api/sweeps/${id}/games/${gameId}`;
const $ = (sel) => document.querySelector(sel);
const CATEGORIES = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'];
const ROMAN = ['', 'I', 'II', 'III'];

/** A seat's score after a step: the total, then the categories that score anything. */
function scoreLine(score) {
  const parts = CATEGORIES.filter((c) => score[c] !== 0).map((c) => `${c} ${score[c]}`);
  return el('div', { class: 'running-score' }, el('strong', {}, `${score.total} VP`), parts.length ? ` (${parts.join(', ')})` : '');
}

/** A seat's agent by its display name: its canonical spec (games stored before it was kept: as submitted). */
const shown = (p) => p.canonical ?? p.agent;

const stepName = (s) => (s.phase === 'turn' ? `Age ${ROMAN[s.age]}, turn ${s.turn}` : `Age ${ROMAN[s.age]}, ${s.phase === 'seventh' ? 'seventh card' : 'build from the discard pile'}`);

/**
 * The debugger: one step at a time (buttons, the slider, ← → Home End), from every seat's view or
 * one seat's (only what it knew: GET …/timeline?seat=), with that seat's search statistics. The
 * step and the seat are kept in the address (#step=12&seat=1), so a link opens them.
 */
function stepThrough(game, allSteps) {
  $('#debugger').hidden = false;
  const views = new Map([['', allSteps]]);
  const params = new URLSearchParams(location.hash.slice(1));
  let at = Math.min(Math.max(Number(params.get('step') ?? 0) || 0, 0), allSteps.length - 1);
  const pov = $('#pov');
  pov.replaceChildren(el('option', { value: '' }, 'every seat (all cards)'), ...game.players.map((p) => el('option', { value: p.seat }, `seat ${p.seat}: ${shown(p)} (${p.city})`)));
  pov.value = params.get('seat') ?? '';
  const slider = $('#step-slider');
  slider.max = String(allSteps.length - 1);

  async function stepsOf(seat) {
    if (!views.has(seat)) views.set(seat, (await getJSON(`${gameUrl}/timeline?seat=${seat}`)).steps);
    return views.get(seat);
  }

  async function show() {
    const seat = pov.value;
    const steps = await stepsOf(seat);
    const s = steps[at];
    slider.value = String(at);
    $('#step-at').textContent = `step ${at + 1} of ${steps.length}: ${stepName(s)}`;
    $('#step-prev').disabled = at === 0;
    $('#step-next').disabled = at === steps.length - 1;
    history.replaceState(null, '', `#step=${at}${seat === '' ? '' : `&seat=${seat}`}`);
    $('#step-view').replaceChildren(
      ...game.players.map((p) => {
        const q = p.seat;
        const b = s.before[q];
        const move = s.moves.find((m) => m.seat === q);
        const hand = b.hidden ? `${b.hidden.size} cards in hand${b.hidden.candidates ? `; it may hold: ${b.hidden.candidates.join(', ')}` : ' (not seen by this seat yet)'}` : `hand: ${b.hand.join(', ') || '—'}`;
        return el(
          'section',
          { class: `city${String(q) === seat ? ' you' : ''}`, 'data-seat': q },
          el('h3', {}, `Seat ${q}: `, agentName(shown(p), p.agent), ` — ${p.city} ${p.side}`),
          el('div', { class: 'hand' }, `${b.coins} coins · ${b.shields} shields · ${b.militaryPoints} military points · ${b.stages} stages · ${b.cityCards} buildings`),
          el('div', { class: 'hand' }, hand),
          el('div', {}, move ? moveText(move) : 'does not act in this step'),
          scoreLine(s.scores[q]),
          move?.search ? searchList(move.search, move) : '',
        );
      }),
    );
  }

  const go = (to) => {
    at = Math.min(Math.max(to, 0), allSteps.length - 1);
    void show();
  };
  $('#step-prev').addEventListener('click', () => go(at - 1));
  $('#step-next').addEventListener('click', () => go(at + 1));
  slider.addEventListener('input', () => go(Number(slider.value)));
  pov.addEventListener('change', () => void show());
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: allSteps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  void show();
}

try {
  $('#back').href = fromPlay ? '/play' : `/sweeps/${id}`;
  if (fromPlay) $('#back').textContent = '← Back to the play page';
  const game = await getJSON(gameUrl);
  document.title = `${gameId} · Wonderlab`;
  $('#title').textContent = `Game ${gameId}`;
  const winners = game.players.filter((p) => p.winner);
  $('#summary').textContent = `Seed ${game.seed}, deal ${game.deal}, seat order ${game.seating}. ${
    winners.length ? `Won by seat ${winners[0].seat} (${shown(winners[0])}) with ${winners[0].score.total} VP.` : `No single winner (decided by ${game.decidedBy}).`
  }`;
  fillTable(
    $('#final'),
    ['seat', 'agent', 'wonder', ...CATEGORIES.map((c) => ({ text: c, num: true })), { text: 'total', num: true }, { text: 'coins', num: true }, { text: 'stages', num: true }, { text: 'rank', num: true }],
    game.players.map((p) => [
      p.seat,
      el('td', {}, agentName(shown(p), p.agent)),
      `${p.city} ${p.side}`,
      ...CATEGORIES.map((c) => p.score[c]),
      el('td', { class: 'num' }, el('strong', {}, String(p.score.total)), p.winner ? ' ★' : ''),
      p.coins,
      p.stages,
      p.rank,
    ]),
  );
  if (!game.record) {
    $('#turns').replaceChildren(el('caption', {}, 'This sweep does not keep move records (keepRecords: false).'));
  } else {
    const { steps } = await getJSON(`${gameUrl}/timeline`);
    const seats = game.players.map((p) => p.seat);
    stepThrough(game, steps);
    fillTable(
      $('#turns'),
      ['step', ...seats.map((q) => `seat ${q}: ${shown(game.players[q])} (${game.players[q].city})`)],
      steps.map((s) => {
        const when = s.phase === 'turn' ? `Age ${ROMAN[s.age]}, turn ${s.turn}` : `Age ${ROMAN[s.age]}, ${s.phase === 'seventh' ? 'seventh card' : 'build from the discard pile'}`;
        return [
          when,
          ...seats.map((q) => {
            const move = s.moves.find((m) => m.seat === q);
            const b = s.before[q];
            return el(
              'td',
              { class: 'seat-cell' },
              el('div', {}, move ? moveText(move) : '—'),
              el('div', { class: 'hand' }, `${b.coins} coins · ${b.shields} shields · ${b.militaryPoints} military points`),
              move ? el('div', { class: 'hand' }, `hand: ${b.hand.join(', ')}`) : '',
              scoreLine(s.scores[q]),
              move?.search ? searchList(move.search, move) : '',
            );
          }),
        ];
      }),
    );
  }
} catch (err) {
  const box = $('#error');
  box.hidden = false;
  box.textContent = err.status === 404 ? (fromPlay ? `Game ${id} is not over, or does not exist.` : `Game ${gameId} of sweep ${id} has not been played yet.`) : `Cannot load the game: ${err.message}`;
}
