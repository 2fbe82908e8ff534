/**
 * Sweeps that tests of more than one service submit, written once so that they stay the same
 * sweep: stopping.test.ts checks what the API says of it, the dashboard's sweep-page.test.ts what
 * the page draws from it.
 */

/**
 * Rulebased against random and back (two cells), each cell stopped by an SPRT (Elo 0 against
 * 100), long before its 400 deals; `name` tells the tests' sweeps apart in a shared lab.
 */
export const sprtMatchupSweep = (name: string) => ({
  name,
  players: 3,
  seats: ['random', 'random', 'random'],
  matchup: { specs: ['rulebased', 'random'], seats: [0, 1] },
  deals: { count: 400 },
  stop: { sprt: { seats: [0, 1], elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05 } },
});
