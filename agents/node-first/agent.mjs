// An outside agent in plain Node.js, no lab code: the agent protocol is JSON lines on stdin and
// stdout (docs/agent-protocol.md). It builds the first card it can, else builds a wonder stage,
// else discards the first card listed.
import { createInterface } from 'node:readline';

const say = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const preference = ['build', 'freeBuild', 'buildDiscarded', 'stage', 'discard'];

createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  switch (msg.type) {
    case 'hello':
      say({ type: 'hello', protocol: 1, name: 'node-first', version: '1.0.0', players: [3, 4, 5, 6, 7] });
      break;
    case 'act': {
      // The legal moves in words: action index, card, kind, coins to each neighbour.
      const best = preference.map((kind) => msg.legal.find((m) => m.kind === kind)).find(Boolean);
      say({ type: 'move', id: msg.id, game: msg.game, action: best.action });
      break;
    }
    case 'game':
    case 'end':
      // Nothing to keep between decisions.
      break;
    default:
      process.stderr.write(`unknown message ${msg.type}\n`);
      process.exit(1);
  }
});
// The lab closes stdin to stop the agent: readline then ends and so does the process.
