/**
 * Agents: one interface (types.ts), specs parsed from strings (spec.ts), and the factory.
 */
import { MctsAgent } from './mcts/agent.js';
import { MinimaxAgent } from './minimax/agent.js';
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
export { MinimaxAgent } from './minimax/agent.js';
export { MINIMAX_AGENT, MINIMAX_LIST, MINIMAX_PARAMETERS, minimaxDefaults, minimaxTable, type MinimaxParams } from './minimax/params.js';
export { RandomAgent } from './random.js';
export { PolicyAgent } from './policy.js';
export { ExternalAgent, DEFAULT_EXT_TIME } from './external/agent.js';
export { AgentFault } from './external/agent-process.js';
export { AGENT_NAME, DEFAULT_AGENTS_DIR, agentParamTable, ExternalAgentError, PROTOCOL_VERSION, agentFingerprint, agentsDirs, checkAgentParams, findAgent, listAgents, outsideAgentModel, type AgentManifest, type InstalledAgent, type OutsideAgentRecord } from './external/manifest.js';
export { VALUE_SCALE, checkNetworkPlayers, inspectNetwork, loadNetwork, type LoadOptions, type ModelLookup, type Network, type NetworkShape } from './network.js';
export { DEFAULT_MAX_MODEL_BYTES, MODEL_NAME, ModelError, ONNX_MAX_BYTES, DEFAULT_MODELS_DIR, modelFile, modelFileAsync, modelPath, modelsDirs, type ModelFile } from './model-files.js';
import { PolicyAgent } from './policy.js';
import { ExternalAgent } from './external/agent.js';
import { findAgent, outsideAgentModel } from './external/manifest.js';
import { checkNetworkPlayers, loadNetwork, type ModelLookup, type NetworkShape } from './network.js';
import { DEFAULT_MAX_MODEL_BYTES } from './model-files.js';
import { checkEvalValues } from './mcts/network-guide.js';
import { NO_MODEL } from './params.js';
export { DawieangRuleBasedAgent, RobilliardRuleBasedAgent, ThesisRuleBasedAgent } from './rulebased.js';
export * as features from './features.js';
export * from './encoding.js';

/** The trained network an agent reads, if any: a policy's model, or an MCTS agent's model=… . */
export function agentModel(spec: AgentSpec): string | undefined {
  if (spec.kind === 'policy') return spec.model;
  if (spec.kind === 'ext') {
    // An agent that is not installed reads nothing; the spec's check says it is not installed.
    let agent;
    try {
      agent = findAgent(spec.name);
    } catch {
      return undefined;
    }
    return outsideAgentModel(agent, spec.options);
  }
  if ('params' in spec && spec.params.model !== NO_MODEL) return spec.params.model;
  return undefined;
}

/**
 * The model lookup of a process that reads the files itself, synchronously (the CLI's sweep and
 * env server, tests): loadNetwork within the lab's default MAX_MODEL_BYTES. The coordinator checks
 * models on a thread of its own instead and looks them up among the results.
 */
export const localModels: ModelLookup = (name) => loadNetwork(name, { maxBytes: DEFAULT_MAX_MODEL_BYTES });

/**
 * Checks the network an agent reads for a game of `players` (ModelError naming the model
 * otherwise): that `models` has it, its observation size, its values' count, and that eval=net or
 * mix has values. For the checks at submit, so that a bad model is a refused spec rather than
 * failed games.
 */
export function checkAgentModel(spec: AgentSpec, players: number, models: ModelLookup = localModels): NetworkShape | undefined {
  const name = agentModel(spec);
  if (name === undefined) return undefined;
  const network = models(name);
  checkNetworkPlayers(network, players);
  if ('params' in spec) checkEvalValues(network, spec.params.eval);
  return network;
}

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
    case 'minimax':
      return new MinimaxAgent(s.minimax, options);
    case 'policy':
      return new PolicyAgent(loadNetwork(s.model, { sha256: options.models?.[s.model] }), s.temp);
    case 'ext':
      return new ExternalAgent(s.name, s.options, options);
  }
}
export { thesisRuleCandidates, thesisRulesMove, thesisRulesMoveLazily } from './playout-rules.js';
