/**
 * A network's logits for one observation as the search reads them: one action at a time (a tree
 * node's priors read the few actions legal in the worlds that reach it, out of ACTION_COUNT).
 */
export interface Logits {
  /** The logit of action index `action` (encoding.ts actionIndex). */
  at(action: number): number;
}

/** Logits computed all at once (onnxruntime, a batch's rows, the root's own observation). */
export class FullLogits implements Logits {
  constructor(readonly values: Float32Array) {}

  at(action: number): number {
    return this.values[action];
  }
}
