/**
 * The agents and their options in words, for `wonderlab agents`, `wonderlab play --help` and the
 * README, all generated from the spec kinds and the parameter table. Why a named agent has its
 * values (figures, runs) is told in the docs each one links to, not here: results are not code.
 */
import { BURY_RULE, MCTS_AGENTS, MCTS_KINDS, PARAMETER_LIST, describeRange, formatParam, mctsDefaults, parameterTable } from './params.js';
import type { MctsKind, MctsParams } from './params.js';
import { EXT_AGENT, POLICY_AGENT, SIMPLE_AGENTS } from './spec.js';
import { agentsDirs, listAgents } from './external/manifest.js';
import { MINIMAX_AGENT, MINIMAX_LIST, minimaxTable } from './minimax/params.js';

const kinds = (): [string, string][] => [
  ...Object.entries(SIMPLE_AGENTS),
  ...MCTS_KINDS.map((k): [string, string] => [`${k}:IT,TIME,DEPTH or ${k}(key=value,…)`, MCTS_AGENTS[k].summary]),
  [`minimax(key=value,…)`, `${MINIMAX_AGENT.summary} (${MINIMAX_AGENT.docs})`],
  [`policy(model=NAME.onnx,temp=T)`, `${POLICY_AGENT.summary}; model: ${POLICY_AGENT.keys.model}; temp: ${POLICY_AGENT.keys.temp} (docs/python.md#policies-in-the-lab)`],
  [`ext(name=AGENT,key=value,…)`, `${EXT_AGENT.summary}; name: ${EXT_AGENT.keys.name}; time: ${EXT_AGENT.keys.time}; fault: ${EXT_AGENT.keys.fault}`],
];

/** A named agent's values that differ from the table's defaults, as a spec writes them: `det=pimc,worlds=1`. */
function overrides(kind: MctsKind): string {
  const values = MCTS_AGENTS[kind].params as Partial<MctsParams>;
  return PARAMETER_LIST.filter((def) => def.field in values).map((def) => `${def.key}=${formatParam(values[def.field])}`).join(',');
}

/** The README's agent tables (markdown). */
export function agentsMarkdown(): string {
  const lines = ['| spec | agent |', '| --- | --- |'];
  for (const [spec, what] of kinds()) lines.push(`| \`${spec}\` | ${what} |`);
  lines.push('', `| key | range | ${MCTS_KINDS.map((k) => `\`${k}\``).join(' | ')} | meaning |`, `| --- | --- | ${MCTS_KINDS.map(() => '---').join(' | ')} | --- |`);
  const defaults = MCTS_KINDS.map((k) => mctsDefaults(k));
  for (const def of PARAMETER_LIST) {
    const values = defaults.map((d) => formatParam(d[def.field]));
    lines.push(`| \`${def.key}\` | ${describeRange(def).replace(/\|/g, '\\|')} | ${values.join(' | ')} | ${def.meaning.replace(/\|/g, '\\|')} |`);
  }
  lines.push('', `The card a grouped discard or stage arm uses (the *bury rule*): ${BURY_RULE}.`, '');
  for (const k of MCTS_KINDS) lines.push(`- \`${k}\`: ${MCTS_AGENTS[k].summary}; ${overrides(k) ? `\`${overrides(k)}\`` : 'the defaults'}; where its values come from: [${MCTS_AGENTS[k].docs}](${MCTS_AGENTS[k].docs}).`);
  // minimax's options in one line (their meanings: `wonderlab agents` and its docs), so that the README stays a manual.
  const options = MINIMAX_LIST.map((def) => `\`${def.key}\` (${def.type === 'choice' ? def.values!.join(' \\| ') : `${def.min}–${def.max}`}; ${formatParam(def.default)})`).join(', ');
  lines.push(`- \`minimax\`: options ${options}; what each does: \`wonderlab agents\` and [${MINIMAX_AGENT.docs}](${MINIMAX_AGENT.docs}).`);
  return lines.join('\n');
}

/** The same for a terminal: one block per option. */
export function agentsText(): string {
  const out = ['agents:'];
  for (const [spec, what] of kinds()) out.push(`  ${spec}\n      ${what}`);
  out.push('', `MCTS options (defaults: ${MCTS_KINDS.join(' / ')}):`);
  for (const def of PARAMETER_LIST) {
    const values = MCTS_KINDS.map((k) => formatParam(mctsDefaults(k)[def.field]));
    out.push(`  ${def.key}=  ${describeRange(def)}; default ${values.join(' / ')}`, `      ${def.meaning}`);
  }
  out.push('', 'minimax options:');
  for (const def of MINIMAX_LIST) out.push(`  ${def.key}=  ${describeRange(def)}; default ${formatParam(def.default)}`, `      ${def.meaning}`);
  out.push('', `grouped arms bury ${BURY_RULE}.`, '', 'named MCTS agents (their values apart from the defaults; where they come from):');
  for (const k of MCTS_KINDS) out.push(`  ${k}  ${overrides(k) || 'the defaults'}`, `      ${MCTS_AGENTS[k].docs}`);
  out.push('', ...outsideAgentsText());
  return out.join('\n');
}

/** The outside agents installed under AGENTS_DIR, as `wonderlab agents` lists them beside the built-in ones. */
export function outsideAgentsText(dirs = agentsDirs()): string[] {
  const { agents, problems } = listAgents(dirs);
  const out = [`outside agents (AGENTS_DIR: ${dirs.join(', ')}; ext(name=…) plays one):`];
  if (agents.length === 0) out.push('  none installed');
  for (const { manifest: m } of agents) {
    const params = Object.entries(m.params).map(([k, v]) => (typeof v === 'string' ? `${k}: ${v}` : v.type === 'model' ? `${k}=  a model file under MODELS_DIR; ${v.default ? `default ${v.default}` : 'required'}: ${v.description}` : `${k}=  ${v.type === 'choice' ? v.values!.join(' | ') : `${v.min} to ${v.max}`}; default ${v.default}: ${v.description}`));
    out.push(`  ext(name=${m.name})  ${m.version}, ${m.players.join('/')} players`, `      ${m.summary}`, ...params.map((p) => `      ${p}`));
  }
  for (const p of problems) out.push(`  cannot be played: ${p}`);
  return out;
}

/** Every agent kind and MCTS option as data, for the API (`GET /api/schema/agents.json`) and the dashboard. */
export function agentCatalog() {
  return {
    kinds: [
      ...Object.entries(SIMPLE_AGENTS).map(([kind, summary]) => ({ kind, summary, mcts: false })),
      ...MCTS_KINDS.map((kind) => ({ kind, summary: MCTS_AGENTS[kind].summary, docs: MCTS_AGENTS[kind].docs, mcts: true })),
      { kind: MINIMAX_AGENT.kind, summary: MINIMAX_AGENT.summary, docs: MINIMAX_AGENT.docs, mcts: false, parameters: minimaxTable() },
      { kind: POLICY_AGENT.kind, summary: POLICY_AGENT.summary, docs: 'docs/python.md#policies-in-the-lab', mcts: false, keys: POLICY_AGENT.keys },
      { kind: EXT_AGENT.kind, summary: EXT_AGENT.summary, docs: 'docs/agent-protocol.md', mcts: false, keys: EXT_AGENT.keys },
    ],
    parameters: parameterTable(),
    buryRule: BURY_RULE,
  };
}
