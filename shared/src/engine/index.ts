/**
 * The 7 Wonders engine — the contract.
 *
 * State is plain data (GameState); the rules are stateless functions over it:
 * - newGame(config)                 a seeded game: boards, sides, 3 coins each, Age I dealt.
 * - actingSeats(state)              the seats that choose now (all seats on a normal turn; only
 *                                   Babylon B for its seventh card; only Halicarnassus when it
 *                                   builds from the discard pile).
 * - legalMoves(state, seat, mode)   never empty for an acting seat (a discard is always legal);
 *                                   'cheapest' or 'all' payments.
 * - drawUniformMove(state, seat, rng, …)   one of the 'cheapest' legal moves of a normal turn,
 *                                   uniformly, pricing only the cards the draw looks at.
 * - step(state, moves)              applies every acting seat's move at once (simultaneous
 *                                   reveal), then advances the turn, the Age, the game.
 * - state.isOver(), gameResult(s)   final breakdown, winners and how the tie was decided.
 * - clone(state)                    a deep copy with its own RNG; no JSON involved.
 * - observe(state, seat)            what that seat knows.
 * - determinize(state, seat, rng)   a copy in which everything the seat cannot know is resampled
 *                                   consistently with what it has seen, on a forked RNG;
 *                                   new Determinizer(state, seat).sample(rng) draws many.
 * - startLog / logStep, recordFromLog   a game kept as its config and move codes, and its full
 *                                   record rebuilt from them by replaying.
 * Same seed and same moves give the same game on every machine.
 */
export * from './resources.js';
export * from './effects.js';
export * from './catalog.js';
export * from './rng.js';
export * from './state.js';
export * from './payment.js';
export * from './moves.js';
export * from './rules.js';
export * from './scoring.js';
export * from './uniform-draw.js';
export * from './random-game.js';
export * from './information.js';
export * from './record.js';
export * from './move-log.js';
export * from './position.js';
