// Training rows of a few locally played games, as the lab's export writes them (test support for
// test_train.py): node make_rows.mjs OUT.npz GAMES FIRST_SEED SPEC;SPEC;SPEC
import { writeFileSync } from 'node:fs';
import { TrainingRows, playGame, trainingArchive } from '../../shared/dist/src/lab/index.js';

const [out, games, firstSeed, specs] = process.argv.slice(2);
const agents = specs.split(';');
const rows = new TrainingRows(agents.length);
for (let g = 0; g < Number(games); g++) {
  const seed = Number(firstSeed) + g;
  const summary = playGame({ id: `g${g}`, index: g, seed, set: -1, deal: g, seating: 0, agents, sides: 'random', open: false }, { record: 'training' });
  rows.addGame(summary.log, g, () => true);
}
writeFileSync(out, await trainingArchive(rows, { sweep: `local-${firstSeed}`, name: 'make_rows', games: Number(games), training: true }));
