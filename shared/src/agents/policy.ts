/**
 * `policy(model=NAME, temp=T)`: a trained network plays the seat. The network reads the seat's
 * observation vector (agents/encoding.ts, as float32) and gives one logit per action index; the
 * agent plays the legal action with the highest logit (temp = 0) or samples the legal actions
 * with probabilities softmax(logit / temp) from its own RNG. Models and their loading: network.ts.
 */
import { actionIndex } from './encoding.js';
import { checkNetworkPlayers, type Network } from './network.js';
import type { Agent, Decision, DecisionContext } from './types.js';

export class PolicyAgent implements Agent {
  readonly moveMode = 'cheapest' as const;
  private readonly bytes: Uint8Array;
  private readonly input: Float32Array;

  constructor(
    private readonly network: Network,
    private readonly temp: number,
  ) {
    this.bytes = new Uint8Array(network.inputSize);
    this.input = new Float32Array(network.inputSize);
  }

  decide(ctx: DecisionContext): Decision {
    checkNetworkPlayers(this.network, ctx.players);
    ctx.writeObservation(this.bytes);
    for (let i = 0; i < this.bytes.length; i++) this.input[i] = this.bytes[i];
    const logits = this.network.logits(this.input);
    const { legal } = ctx;
    if (this.temp === 0) {
      // The highest logit; a tie goes to the lower action index, as numpy's argmax does.
      let best = legal[0];
      for (const m of legal) {
        const a = actionIndex(m);
        const b = actionIndex(best);
        if (logits[a] > logits[b] || (logits[a] === logits[b] && a < b)) best = m;
      }
      return { move: best };
    }
    let max = -Infinity;
    for (const m of legal) max = Math.max(max, logits[actionIndex(m)]);
    const weights = legal.map((m) => Math.exp((logits[actionIndex(m)] - max) / this.temp));
    let x = ctx.rng.float() * weights.reduce((s, w) => s + w, 0);
    for (let i = 0; i < legal.length; i++) {
      x -= weights[i];
      if (x < 0) return { move: legal[i] };
    }
    return { move: legal[legal.length - 1] };
  }
}
