// The play page: /play sets up a game against agents, /play/<id> plays it. The server decides
// everything (legal moves, payments, scores); this page shows its view and sends the move a
// button stands for. The game's token stays in this browser (localStorage).
import { agentSuggestions, fillAgentHelp } from './agent-help.js';
import { agentName, bindToken, el, fillTable, getJSON, plainText, postJSON } from './api.js';
import { moveText, searchList } from './moves.js';

const $ = (sel) => document.querySelector(sel);
const [, , id] = location.pathname.split('/').map(decodeURIComponent);
const CATEGORIES = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'];
const ROMAN = ['', 'I', 'II', 'III'];
const tokenKey = (gameId) => `wonderlab.play.${gameId}`;

/** A request with the game's token; resolves to { status, body }. */
async function call(method, path, body) {
  const headers = { accept: 'application/json', 'x-play-token': localStorage.getItem(tokenKey(id)) ?? '' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

function showError(box, message) {
  box.hidden = !message;
  box.textContent = message ?? '';
}

// ---- Setting up a game ----

async function setup() {
  $('#setup').hidden = false;
  const token = bindToken($('#f-token'));
  const catalog = await getJSON('/api/schema/agents.json').catch(() => undefined);
  if (catalog) {
    // The same help as New sweep's: the kinds, every MCTS option and minimax's.
    fillAgentHelp(catalog);
    $('#agent-list').replaceChildren(
      ...catalog.kinds.map((k) => el('li', {}, el('code', {}, k.kind), ' — ', plainText(k.summary))),
      ...(catalog.outside ?? []).map((a) => el('li', {}, el('code', {}, a.spec), ' — ', plainText(a.summary), ` (outside agent, ${a.version})`)),
    );
  }
  const players = $('#f-players');
  players.replaceChildren(...[3, 4, 5, 6, 7].map((n) => el('option', { value: n }, String(n))));
  const drawSeats = () => {
    const n = Number(players.value);
    const seat = $('#f-seat');
    const keep = Math.min(Number(seat.value || 0), n - 1);
    seat.replaceChildren(...[...Array(n).keys()].map((q) => el('option', { value: q }, `seat ${q}`)));
    seat.value = String(keep);
    const box = $('#f-agents');
    const before = [...box.querySelectorAll('input')].map((i) => i.value);
    box.replaceChildren(
      ...[...Array(n).keys()].map((q) =>
        q === keep
          ? el('p', { class: 'field' }, el('strong', {}, `Seat ${q}: you`))
          : el('div', { class: 'field' }, el('label', { for: `f-agent-${q}` }, `Seat ${q}`), el('input', { id: `f-agent-${q}`, type: 'text', list: 'agent-kinds', value: before[q] ?? (q % 2 ? 'rulebased' : 'random'), required: true })),
      ),
    );
  };
  players.addEventListener('change', drawSeats);
  $('#f-seat').addEventListener('change', drawSeats);
  drawSeats();
  $('#setup-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const n = Number(players.value);
    const seat = Number($('#f-seat').value);
    const agents = [...Array(n).keys()].map((q) => (q === seat ? 'human' : $(`#f-agent-${q}`).value.trim()));
    const body = { players: n, seat, agents, sides: $('#f-sides').value, ladder: $('#f-ladder').checked };
    if ($('#f-seed').value !== '') body.seed = Number($('#f-seed').value);
    const boards = $('#f-boards').value.split(',').map((b) => b.trim()).filter(Boolean);
    if (boards.length) body.boards = boards;
    $('#start').disabled = true;
    const { status, body: reply } = await postJSON('/api/play', body, token());
    $('#start').disabled = false;
    if (status !== 201) {
      showError($('#setup-error'), reply.error ?? `the lab answered ${status}`);
      const m = /^body\.agents\.(\d+)/.exec(reply.field ?? '');
      if (m) $(`#f-agent-${m[1]}`)?.focus();
      return;
    }
    localStorage.setItem(tokenKey(reply.id), reply.token);
    location.assign(reply.url);
  });
  const { games } = await getJSON('/api/play').catch(() => ({ games: [] }));
  fillTable(
    $('#finished'),
    ['ended', 'players (score, ★ winner)', ''],
    games.map((g) => [g.ended.replace('T', ' ').slice(0, 16), (g.players ?? []).map((p) => `${p.agent} ${p.score}${p.winner ? ' ★' : ''}`).join(' · '), el('a', { href: `/play/${g.id}/replay` }, 'replay')]),
  );
}

// ---- Playing ----

const seatName = (view, q) => (q === view.seat ? 'you' : `seat ${q} (${view.cities[q].agent})`);

function drawHand(view) {
  const hand = $('#hand');
  const building = view.phase === 'discardBuild';
  $('#hand-title').textContent = view.over ? 'The game is over' : !view.yourMove ? 'Waiting' : building ? 'Build one card from the discard pile' : view.phase === 'seventh' ? 'Your seventh card' : 'Your hand: choose one move';
  hand.replaceChildren(
    ...view.hand.map((c) =>
      el(
        'div',
        { class: 'play-card', 'data-colour': c.colour, 'data-card': c.name },
        el('h3', {}, c.name),
        el('div', { class: 'muted' }, `${c.colour}, Age ${ROMAN[c.age]} · cost ${c.cost}`),
        el('div', {}, c.text),
        el('div', { class: 'moves' }, ...c.moves.map((m) => {
          const b = el('button', { type: 'button', class: m.action === 'discard' ? 'secondary' : undefined, 'data-move': m.move, 'data-action': m.action }, m.label);
          b.addEventListener('click', () => play(m.move));
          return b;
        })),
      ),
    ),
  );
  $('#hint-bar').hidden = !view.yourMove;
}

function drawCities(view) {
  const { left, right } = view.trade;
  $('#cities').replaceChildren(
    ...view.cities.map((c) => {
      const trade = c.seat === left.seat ? left : c.seat === right.seat ? right : undefined;
      const side = c.seat === left.seat && c.seat === right.seat ? 'left and right' : c.seat === left.seat ? 'left' : 'right';
      return el(
        'section',
        { class: `city${c.you ? ' you' : ''}`, 'data-seat': c.seat, 'aria-label': `seat ${c.seat}` },
        el('h3', {}, `Seat ${c.seat}: `, c.you ? 'you' : agentName(c.agent), ` — ${c.city} ${c.side}`),
        el('div', {}, `${c.coins} coins · ${c.shields} shields · military ${c.military.length ? c.military.join(' ') : 'none'} · wonder ${c.stages}/${c.stagesTotal} · ${c.score.total} VP now`),
        el('div', { class: 'muted' }, `produces ${c.produces || 'nothing'}${c.you ? '' : ` · ${c.handSize} cards in hand`}`),
        trade ? el('div', {}, `Your ${side} neighbour: sells ${trade.sells || 'nothing'}; raw goods ${trade.raw}, manufactured ${trade.manufactured} coins a unit`) : '',
        el('div', { class: 'built' }, ...c.built.map((b) => el('span', { 'data-colour': b.colour }, b.name))),
      );
    }),
  );
}

function drawLog(view) {
  const turns = view.log.map((st) => {
    const when = st.phase === 'turn' ? `Age ${ROMAN[st.age]}, turn ${st.turn}` : `Age ${ROMAN[st.age]}, ${st.phase === 'seventh' ? 'seventh card' : 'build from the discard pile'}`;
    return el('li', {}, el('strong', {}, when), ': ', st.moves.map((m) => `${seatName(view, m.seat)}: ${moveText(m)}`).join('; '));
  });
  $('#log').replaceChildren(...turns.reverse());
  const last = view.log.at(-1);
  const searched = last?.moves.filter((m) => m.search) ?? [];
  $('#why').replaceChildren(
    ...(searched.length ? searched.map((m) => searchList(m.search, m, `${seatName(view, m.seat)}, ${moveText(m)}`)) : [el('p', { class: 'muted' }, 'No agent searched in the last step.')]),
  );
}

function drawEnd(view) {
  $('#end').hidden = !view.over;
  if (!view.over) return;
  const r = view.result;
  fillTable(
    $('#final'),
    ['seat', 'player', 'wonder', ...CATEGORIES.map((c) => ({ text: c, num: true })), { text: 'total', num: true }, { text: 'coins', num: true }, { text: 'rank', num: true }],
    r.players.map((p) => [p.seat, p.agent === 'human' ? 'you' : agentName(p.canonical, p.agent), `${p.city} ${p.side}`, ...CATEGORIES.map((c) => p.score[c]), el('td', { class: 'num' }, el('strong', {}, String(p.score.total)), p.winner ? ' ★' : ''), p.coins, p.rank]),
  );
  $('#download').href = `/api/play/${id}/record`;
  $('#replay').href = `/play/${id}/replay`;
}

function draw(view) {
  version = view.version;
  const you = view.cities[view.seat];
  const when = view.over ? 'Game over' : `Age ${ROMAN[view.age]}, turn ${view.turn}`;
  $('#status').textContent = `${when} · you: seat ${view.seat}, ${you.city} ${you.side}, ${you.coins} coins, ${you.score.total} VP now · discard pile: ${view.discardSize} cards`;
  drawHand(view);
  drawCities(view);
  drawLog(view);
  drawEnd(view);
  document.body.dataset.turn = `${view.age}.${view.turn}.${view.log.length}`;
}

/** The version of the game the page shows: a move is sent for it, so that a stale page's move is refused. */
let version;

async function play(move) {
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('#hand button'))) b.disabled = true;
  $('#status').textContent = 'The agents are thinking…';
  const { status, body } = await call('POST', `/api/play/${id}/move`, { move, version });
  if (status !== 200) {
    showError($('#move-error'), body.error ?? `the lab answered ${status}`);
    await load();
    return;
  }
  showError($('#move-error'), undefined);
  $('#hint-result').replaceChildren();
  draw(body);
}

async function hint() {
  const agent = $('#hint-agent').value.trim();
  $('#hint-result').replaceChildren(el('p', { class: 'muted' }, `${agent} is thinking…`));
  const { status, body } = await call('POST', `/api/play/${id}/hint`, { agent });
  if (status !== 200) {
    $('#hint-result').replaceChildren(el('p', { class: 'field-error' }, body.error ?? `the lab answered ${status}`));
    return;
  }
  $('#hint-result').replaceChildren(el('p', {}, el('strong', {}, `${body.agent} would play: ${moveText(body.move)}`), ` (${body.ms} ms, from your information only)`), body.search ? searchList(body.search, body.move, 'its search') : '');
}

async function load() {
  const { status, body } = await call('GET', `/api/play/${id}`);
  if (status !== 200) {
    const box = $('#error');
    box.hidden = false;
    box.textContent = status === 401 || status === 403 ? `This browser does not hold the token of game ${id}.` : body.error ?? `the lab answered ${status}`;
    return;
  }
  $('#game').hidden = false;
  draw(body);
}

try {
  if (id) {
    $('#hint').addEventListener('click', hint);
    const catalog = await getJSON('/api/schema/agents.json').catch(() => undefined);
    if (catalog) $('#agent-kinds').replaceChildren(...agentSuggestions(catalog));
    await load();
  } else {
    await setup();
  }
} catch (err) {
  showError($('#error'), `Cannot load the page: ${err.message}`);
} finally {
  document.body.dataset.ready = '';
}
