// A move and a search's root statistics in words, as the replay and play pages both show them.
import { el } from './api.js';

/** A recorded move in words; a card face down (another seat's stage or discard in a seat's view) has none. */
export function moveText(m) {
  const pay = m.payLeft || m.payRight ? ` (pays ${m.payLeft} left, ${m.payRight} right)` : '';
  const card = m.card || 'a card face down';
  switch (m.action) {
    case 'build':
      return `builds ${card}${pay}`;
    case 'stage':
      return `builds a wonder stage with ${card}${pay}`;
    case 'discard':
      return `discards ${card} (+3 coins)`;
    case 'buildDiscarded':
      return `builds ${card} from the discard pile (free)`;
    case 'freeBuild':
      return `builds ${card} for free (wonder power)`;
    default:
      return `${m.action} ${card}${pay}`;
  }
}

const sameMove = (a, b) => a.card === b.card && a.age === b.age && a.action === b.action && a.payLeft === b.payLeft && a.payRight === b.payRight;

/**
 * What a search found: its effort (after `title`, when given), then its root moves as listed (MCTS:
 * most visited first; minimax: best valued first), the one played marked — the first when the
 * move played is face down in this view.
 */
export function searchList(search, played, title) {
  const carried = search.carried ? ` (+ ${search.carried} visits kept from the last decision)` : '';
  const effort = search.depth !== undefined ? `minimax: depth ${search.depth}, ${search.iterations} nodes, ${search.ms} ms` : `search: ${search.iterations} iterations${carried}, ${search.ms} ms`;
  return el(
    'div',
    { class: 'search' },
    el('div', { class: 'search-effort' }, title ? `${title} — ${effort}` : effort),
    el(
      'ol',
      {},
      ...search.moves.map((m, i) => {
        const chosen = played?.card ? sameMove(m.move, played) : i === 0;
        const votes = m.votes !== undefined ? ` · ${m.votes} votes` : '';
        return el(
          'li',
          { class: chosen ? 'chosen' : undefined, title: chosen ? 'the move played' : undefined },
          chosen ? '▶ ' : '',
          moveText(m.move),
          el('span', { class: 'search-stats' }, search.depth !== undefined ? ` — value ${m.value.toFixed(2)} VP over ${m.visits} worlds` : ` — ${m.visits} visits · mean ${m.value.toFixed(3)}${votes}`),
        );
      }),
    ),
    search.network ? el('p', { class: 'search-network' }, `Its network expects final VP: ${search.network.map((vp, seat) => `seat ${seat} ${vp.toFixed(1)}`).join(' · ')}`) : '',
    search.hidden ? el('p', { class: 'muted' }, 'Its other moves, and what its network expects, come from its hand: shown when the game is over.') : '',
  );
}
