/**
 * Agents: one interface (types.ts), specs parsed from strings (spec.ts), and the factory.
 */
import { MctsAgent } from './mcts/agent.js';
import { RandomAgent } from './random.js';
import { DawieangRuleBasedAgent, RobilliardRuleBasedAgent, ThesisRuleBasedAgent } from './rulebased.js';
import { parseAgentSpec, type AgentSpec } from './spec.js';
import type { Agent, AgentOptions } from './types.js';

export * from './types.js';
export * from './spec.js';
export * from './params.js';
export { agentCatalog, agentsMarkdown, agentsText } from './describe.js';
export { decisionContext } from './context.js';
export { MctsAgent } from './mcts/agent.js';
export { RandomAgent } from './random.js';
export { ModelError, PolicyAgent, checkPolicyPlayers, loadPolicy, modelPath, modelsDir, type PolicyNetwork } from './policy.js';
import { PolicyAgent, loadPolicy } from './policy.js';
export { DawieangRuleBasedAgent, RobilliardRuleBasedAgent, ThesisRuleBasedAgent } from './rulebased.js';
export * as features from './features.js';
export * from './encoding.js';

/** A fresh agent for one seat of one game (agents keep per-game state). */
export function createAgent(spec: AgentSpec | string, options: AgentOptions = {}): Agent {
  const s = typeof spec === 'string' ? parseAgentSpec(spec) : spec;
  switch (s.kind) {
    case 'random':
      return new RandomAgent();
    case 'rulebased':
      return new ThesisRuleBasedAgent();
    case 'rulebased-robilliard':
      return new RobilliardRuleBasedAgent();
    case 'rulebased-robilliard-notrade':
      return new RobilliardRuleBasedAgent({ trades: false });
    case 'rulebased-dawieang':
      return new DawieangRuleBasedAgent();
    case 'mcts':
    case 'mcts-robilliard':
    case 'mcts-strong':
      return new MctsAgent(s.params, options);
    case 'policy':
      return new PolicyAgent(loadPolicy(s.model), s.temp);
  }
}
export { thesisRuleCandidates, thesisRulesMove, thesisRulesMoveLazily } from './playout-rules.js';
