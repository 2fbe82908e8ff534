// The spec form's pure side: JSON Schema nodes (as the API serves the sweep spec's schema), paths
// into the spec document, starting values, and the text of a control. No DOM, so node tests it.
//
// The form edits one document (the spec as JSON) and writes only the path a control names, so a
// preset loaded and submitted unchanged is the preset, byte for byte, and editing one control
// changes one value.

/** Follows a `$ref` into the root's `$defs` (zod inlines schemas, but a reused one may be a ref). */
export function resolve(root, node) {
  let n = node ?? {};
  for (let hops = 0; n.$ref && hops < 32; hops++) n = root.$defs?.[n.$ref.replace(/^#\/\$defs\//, '')] ?? {};
  return n;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer']);
const typesOf = (node) => (Array.isArray(node.type) ? node.type : node.type ? [node.type] : []);
const isScalar = (node) => !node.enum && typesOf(node).length > 0 && typesOf(node).every((t) => SCALAR_TYPES.has(t));
const isScalarList = (root, node) => typesOf(node).includes('array') && !node.prefixItems && isScalar(resolve(root, node.items));

/** The variants of a union node, resolved. */
export function variantsOf(root, node) {
  return (node.oneOf ?? node.anyOf ?? []).map((v) => resolve(root, v));
}

/** The property every variant fixes with a `const` (a discriminated union's tag), if any. */
export function discriminator(root, node) {
  const variants = variantsOf(root, node);
  if (!variants.length || !variants.every((v) => v.type === 'object' && v.properties)) return undefined;
  return Object.keys(variants[0].properties).find((key) => variants.every((v) => v.properties[key] && resolve(root, v.properties[key]).const !== undefined));
}

/**
 * What kind of control a node gets: 'const', 'enum', 'boolean', 'number', 'string', 'scalar' (a
 * text that may be a number or a string), 'scalar-list' (one value or a comma-separated list),
 * 'object', 'tuple', 'list', 'tagged' (a union told apart by a const property) or 'choice' (a
 * union of different shapes, picked by a select).
 */
export function kindOf(root, node) {
  if (node.const !== undefined) return 'const';
  if (node.enum) return 'enum';
  if (node.oneOf || node.anyOf) {
    const variants = variantsOf(root, node);
    if (discriminator(root, node)) return 'tagged';
    if (variants.every(isScalar)) return 'scalar';
    if (variants.every((v) => isScalar(v) || isScalarList(root, v))) return 'scalar-list';
    return 'choice';
  }
  const types = typesOf(node);
  if (types.length > 1 && types.every((t) => SCALAR_TYPES.has(t))) return 'scalar';
  switch (types[0]) {
    case 'object':
      return 'object';
    case 'array':
      return node.prefixItems ? 'tuple' : 'list';
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'number':
      return 'number';
    default:
      return 'string';
  }
}

/** The types a scalar control may produce. */
export function scalarTypes(root, node) {
  const out = new Set();
  const add = (n) => typesOf(n).forEach((t) => out.add(t === 'integer' ? 'number' : t));
  if (node.oneOf || node.anyOf) {
    for (const v of variantsOf(root, node)) {
      if (isScalarList(root, v)) add(resolve(root, v.items));
      else add(v);
    }
  } else add(node);
  return out;
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The value a scalar control's text stands for: a number where numbers are allowed and the text
 * is one, else the text (a wrong type is left for the API to name). Empty text: no value.
 */
export function parseScalar(text, types) {
  const t = text.trim();
  if (t === '') return undefined;
  if (types.has('number') && NUMERIC.test(t)) return Number(t);
  return types.has('string') ? text : t;
}

/**
 * One value, or several separated by commas (a swept option's list). A list may be written as the
 * JSON view writes it, `[0.2, 0.7, 1.5]` or `["win", "rank"]`: the brackets and each value's
 * quotes are the list's writing, not part of its values (read as text, `[0.2` became the agent
 * `mcts(c=[0.2)`).
 */
export function parseScalarList(text, types) {
  const t = text.trim();
  const inner = t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : text;
  const parts = inner.split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
  if (parts.length === 1) return parseScalar(parts[0], types);
  return parts.map((s) => parseScalar(s, types) ?? '');
}

export function formatScalarList(value) {
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The number a number control's text stands for; any other text is kept for the API to name. */
export function parseNumber(text) {
  const t = text.trim();
  if (t === '') return undefined;
  return NUMERIC.test(t) ? Number(t) : t;
}

/** A starting value for a node: its default, else the least value its type allows. */
export function skeleton(root, node, index = 0) {
  const n = resolve(root, node);
  if (n.default !== undefined) return structuredClone(n.default);
  if (n.const !== undefined) return n.const;
  if (n.enum) return n.enum[0];
  const kind = kindOf(root, n);
  switch (kind) {
    case 'tagged':
    case 'choice':
      return skeleton(root, variantsOf(root, n)[0]);
    case 'scalar':
    case 'scalar-list':
      return '';
    case 'object': {
      const out = {};
      for (const key of n.required ?? []) out[key] = skeleton(root, n.properties[key]);
      return out;
    }
    // Tuples of seats start as 0, 1, …: two different seats, as most pairs must be.
    case 'tuple':
      return n.prefixItems.map((item, i) => skeleton(root, item, i));
    case 'list':
      return Array.from({ length: n.minItems ?? 0 }, (_, i) => skeleton(root, n.items, i));
    case 'boolean':
      return false;
    case 'number': {
      const min = Number.isFinite(n.minimum) && Math.abs(n.minimum) < 1e15 ? n.minimum : 0;
      return Math.max(min, index);
    }
    default:
      return '';
  }
}

/** The variant of a union a value is in: by its tag, else by its JSON type; 0 when none fits. */
export function variantIndex(root, node, value) {
  const variants = variantsOf(root, node);
  const tag = discriminator(root, node);
  if (tag) {
    const i = variants.findIndex((v) => resolve(root, v.properties[tag]).const === value?.[tag]);
    return Math.max(0, i);
  }
  const json = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const i = variants.findIndex((v) => typesOf(v).some((t) => t === json || (json === 'number' && t === 'integer')));
  return Math.max(0, i);
}

/** A path as the API names a field: `seats.1.params.c`. */
export const pathName = (path) => path.join('.');

export function getAt(doc, path) {
  let v = doc;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[key];
  }
  return v;
}

/**
 * Sets the value at `path` (undefined: removes an object's key), creating the objects on the way.
 * Everything else in the document stays as it is, key order included.
 */
export function setAt(doc, path, value) {
  if (path.length === 0) throw new Error('the whole document cannot be set by path');
  let parent = doc;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (parent[key] === null || typeof parent[key] !== 'object') parent[key] = typeof path[i + 1] === 'number' ? [] : {};
    parent = parent[key];
  }
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value === undefined ? null : value;
}

/** Removes an array's item or an object's key. */
export function removeAt(doc, path) {
  const parent = getAt(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent.splice(last, 1);
  else if (parent && typeof parent === 'object') delete parent[last];
}
