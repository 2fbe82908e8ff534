// A form generated from a JSON Schema (the sweep spec's, as GET /api/schema/sweep-spec.json
// serves it): one control per value, each named by its path, so the page has no list of fields of
// its own. Controls write only their own path into the document; a control whose value is absent
// shows the schema's default and writes nothing until it is changed.
import { el, plainText, withCode } from './api.js';
import * as D from './spec-doc.js';

/** A control's id: `f-` and its path joined by '-' (seats.1.params.c → f-seats-1-params-c). */
export const controlId = (path) => `f-${path.join('-')}`;

/** An object whose properties are all optional, without defaults, and many, lists only those set. */
const PICK_LIST_MIN = 8;

export class SpecForm {
  /**
   * @param container where the form goes
   * @param schema the JSON Schema of the document
   * @param hooks onEdit(structural): after a control changed the document (structural: the form
   *   was drawn again); decorate(input, node, path): extra attributes (suggestion lists);
   *   initial(path, node): the first value of an option added to a pick list
   */
  constructor(container, schema, hooks = {}) {
    this.container = container;
    this.schema = schema;
    this.hooks = hooks;
    this.doc = {};
  }

  /** Draws the form for `doc` (the document itself is kept and edited in place). */
  render(doc) {
    this.doc = doc;
    const focused = document.activeElement?.id;
    this.container.replaceChildren(...this.objectFields(this.schema, [], doc));
    // A structural edit draws the form again: the control that made it keeps the focus.
    if (focused) document.getElementById(focused)?.focus();
  }

  resolve(node) {
    return D.resolve(this.schema, node);
  }

  /** A value edited: the document changes at `path` only. */
  write(path, value, structural = false) {
    D.setAt(this.doc, path, value);
    if (structural) this.render(this.doc);
    this.hooks.onEdit?.(structural);
  }

  remove(path) {
    D.removeAt(this.doc, path);
    this.render(this.doc);
    this.hooks.onEdit?.(true);
  }

  // -------------------------------------------------------------------------------------------
  // Objects

  objectFields(node, path, value) {
    const props = node.properties ?? {};
    const required = new Set(node.required ?? []);
    return Object.keys(props).map((key) => this.property(props[key], [...path, key], value?.[key], required.has(key)));
  }

  /** An object whose values are all optional and many (an agent's options): only those set are listed. */
  isPickList(node) {
    const props = Object.values(node.properties ?? {}).map((p) => this.resolve(p));
    return node.type === 'object' && props.length >= PICK_LIST_MIN && !(node.required ?? []).length && props.every((p) => p.default === undefined);
  }

  property(raw, path, value, required) {
    const node = this.resolve(raw);
    if (required || node.default !== undefined || this.isPickList(node)) return this.node(node, path, value);
    // Optional, no default: present or absent at the user's choice.
    const name = D.pathName(path);
    const box = el('div', { class: 'field optional', 'data-field': name });
    const toggle = el('input', { type: 'checkbox', id: `${controlId(path)}-include` });
    toggle.checked = value !== undefined;
    toggle.addEventListener('change', () => this.write(path, toggle.checked ? D.skeleton(this.schema, node) : undefined, true));
    box.append(el('label', { class: 'inline' }, toggle, ` ${node.title ?? path[path.length - 1]}`));
    if (node.description) box.append(el('p', { class: 'hint' }, ...withCode(node.description)));
    if (value !== undefined) box.append(this.node(node, path, value, { bare: true }));
    return box;
  }

  // -------------------------------------------------------------------------------------------
  // One node

  node(node, path, value, opts = {}) {
    const kind = D.kindOf(this.schema, node);
    switch (kind) {
      case 'object':
        return this.isPickList(node) ? this.pickList(node, path, value) : this.group(node, path, opts, this.objectFields(node, path, value));
      case 'tagged':
        return this.tagged(node, path, value, opts);
      case 'choice':
        return this.choice(node, path, value, opts);
      case 'tuple':
        return this.tuple(node, path, value, opts);
      case 'list':
        return this.list(node, path, value, opts);
      case 'const':
        return el('span', { hidden: true });
      default:
        return this.leaf(kind, node, path, value, opts);
    }
  }

  label(node, path, opts) {
    return opts.title ?? node.title ?? String(path[path.length - 1] ?? '');
  }

  /** A fieldset of child fields (an object, tuple or list). */
  group(node, path, opts, children) {
    const box = el('fieldset', { class: `field group${opts.bare ? ' bare' : ''}`, 'data-field': D.pathName(path) });
    if (!opts.bare) box.append(el('legend', {}, this.label(node, path, opts)));
    if (node.description && !opts.bare) box.append(el('p', { class: 'hint' }, ...withCode(node.description)));
    box.append(...children);
    return box;
  }

  /** One input, select or checkbox for a scalar value. */
  leaf(kind, node, path, value, opts) {
    const id = controlId(path);
    const absent = value === undefined;
    const shown = absent ? node.default : value;
    let input;
    if (kind === 'enum') {
      // A value the schema does not allow (typed into the JSON) is shown as it is, for the API to name.
      const values = shown === undefined || node.enum.includes(shown) ? node.enum : [...node.enum, shown];
      input = el('select', { id }, ...values.map((v) => el('option', { value: v }, node.enum.includes(v) ? String(v) : `${v} (not allowed)`)));
      input.value = shown ?? '';
      input.addEventListener('change', () => this.write(path, input.value));
    } else if (kind === 'boolean') {
      input = el('input', { id, type: 'checkbox' });
      input.checked = Boolean(shown);
      input.addEventListener('change', () => this.write(path, input.checked));
    } else if (kind === 'number') {
      const bound = (x) => (Number.isFinite(x) && Math.abs(x) < 1e15 ? x : undefined);
      input = el('input', { id, type: 'number', min: bound(node.minimum), max: bound(node.maximum), step: node.type === 'integer' ? 1 : 'any' });
      input.value = shown === undefined ? '' : String(shown);
      input.addEventListener('input', () => this.write(path, D.parseNumber(input.value)));
    } else {
      input = el('input', { id, type: 'text', size: kind === 'string' ? 40 : 24, spellcheck: 'false' });
      if (kind === 'scalar-list') {
        input.value = D.formatScalarList(shown);
        const types = D.scalarTypes(this.schema, node);
        input.addEventListener('input', () => this.write(path, D.parseScalarList(input.value, types)));
      } else if (kind === 'scalar') {
        input.value = shown === undefined ? '' : String(shown);
        const types = D.scalarTypes(this.schema, node);
        input.addEventListener('input', () => this.write(path, D.parseScalar(input.value, types)));
      } else {
        input.value = shown ?? '';
        input.addEventListener('input', () => this.write(path, input.value));
      }
    }
    this.hooks.decorate?.(input, node, path);
    const box = el('div', { class: `field${absent && node.default !== undefined ? ' is-default' : ''}`, 'data-field': D.pathName(path) });
    const text = this.label(node, path, opts);
    if (kind === 'boolean') box.append(el('label', { class: 'inline', for: id }, input, ` ${text}`));
    else box.append(el('label', { for: id }, text), input);
    if (opts.extra) box.append(opts.extra);
    const hints = [node.description, absent && node.default !== undefined ? 'default' : undefined].filter(Boolean);
    if (hints.length && !opts.noHint) box.append(el('p', { class: 'hint' }, ...withCode(hints.join(' · '))));
    return box;
  }

  /** A union told apart by a constant property (wonders.mode): a select, then the variant's other fields. */
  tagged(node, path, value, opts) {
    const tag = D.discriminator(this.schema, node);
    const variants = D.variantsOf(this.schema, node);
    const shown = value ?? node.default;
    const active = variants[D.variantIndex(this.schema, node, shown)];
    const id = controlId([...path, tag]);
    const select = el('select', { id }, ...variants.map((v) => el('option', { value: this.resolve(v.properties[tag]).const }, v.description ? `${v.title ?? this.resolve(v.properties[tag]).const}: ${plainText(v.description)}` : (v.title ?? this.resolve(v.properties[tag]).const))));
    select.value = this.resolve(active.properties[tag]).const;
    select.addEventListener('change', () => {
      const variant = variants.find((v) => this.resolve(v.properties[tag]).const === select.value);
      this.write(path, D.skeleton(this.schema, { ...variant, default: undefined }), true);
    });
    const head = el('div', { class: `field${value === undefined ? ' is-default' : ''}`, 'data-field': D.pathName([...path, tag]) }, el('label', { for: id }, tag), select);
    const rest = Object.keys(active.properties)
      .filter((k) => k !== tag)
      .map((k) => this.property(active.properties[k], [...path, k], shown?.[k], (active.required ?? []).includes(k)));
    return this.group(node, path, opts, [head, ...rest]);
  }

  /**
   * A union of different shapes (a seat: a spec string, or an agent with options): a select of the
   * shapes, then the control of the value's shape at the same path.
   */
  choice(node, path, value, opts) {
    const variants = D.variantsOf(this.schema, node);
    const index = D.variantIndex(this.schema, node, value);
    const id = `${controlId(path)}-form`;
    const select = el('select', { id, 'aria-label': `${this.label(node, path, opts)}: form` }, ...variants.map((v, i) => el('option', { value: i }, v.title ?? `form ${i + 1}`)));
    select.value = String(index);
    select.addEventListener('change', () => this.write(path, this.convert(value, variants[Number(select.value)]), true));
    const inner = this.node(variants[index], path, value, { ...opts, title: this.label(node, path, opts) });
    // The shape's select sits after the label (or legend), inside the box that names the path.
    inner.insertBefore(select, inner.children[1] ?? null);
    return inner;
  }

  /** A value carried into another shape: an agent kind kept from a spec string and back. */
  convert(value, variant) {
    const fresh = D.skeleton(this.schema, variant);
    const kindKey = Object.keys(variant.properties ?? {}).find((k) => this.resolve(variant.properties[k]).format === 'agent-kind');
    if (typeof value === 'string' && kindKey) return { ...fresh, [kindKey]: /^[A-Za-z][A-Za-z-]*/.exec(value)?.[0] ?? '' };
    if (value && typeof value === 'object' && D.kindOf(this.schema, variant) !== 'object') {
      const key = Object.keys(value).find((k) => typeof value[k] === 'string');
      if (key) return value[key];
    }
    return fresh;
  }

  tuple(node, path, value, opts) {
    const items = node.prefixItems.map((item, i) => this.node(this.resolve(item), [...path, i], value?.[i], { title: `${i}`, noHint: true }));
    const g = this.group(node, path, opts, [el('div', { class: 'inline-fields' }, ...items)]);
    return g;
  }

  list(node, path, value, opts) {
    const items = Array.isArray(value) ? value : [];
    const itemNode = this.resolve(node.items);
    const title = this.label(node, path, opts);
    const singular = itemNode.title ?? title;
    const min = node.minItems ?? 0;
    const max = node.maxItems ?? Infinity;
    const rows = items.map((item, i) => {
      const remove = el('button', { type: 'button', class: 'secondary small', id: `${controlId([...path, i])}-remove`, 'aria-label': `remove ${singular} ${i}`, disabled: items.length <= min }, '×');
      remove.addEventListener('click', () => this.remove([...path, i]));
      // Every item has the same description: it is said once, under the first.
      return el('div', { class: 'list-item' }, this.node(itemNode, [...path, i], item, { title: `${singular} ${i}`, noHint: i > 0 }), remove);
    });
    const add = el('button', { type: 'button', class: 'secondary small', id: `${controlId(path)}-add`, disabled: items.length >= max }, `add ${singular}`);
    add.addEventListener('click', () => this.write(path, [...items, D.skeleton(this.schema, itemNode, items.length)], true));
    return this.group(node, path, opts, [...rows, add]);
  }

  /** The options set, each removable, and a select to add one of the others. */
  pickList(node, path, value) {
    const props = node.properties;
    const set = value && typeof value === 'object' ? Object.keys(value).filter((k) => Object.hasOwn(props, k)) : [];
    const rows = set.map((key) => {
      const p = [...path, key];
      const remove = el('button', { type: 'button', class: 'secondary small', id: `${controlId(p)}-remove`, 'aria-label': `remove option ${key}` }, '×');
      remove.addEventListener('click', () => {
        D.removeAt(this.doc, p);
        // No option left: the document is as it was before the first was added.
        if (Object.keys(D.getAt(this.doc, path) ?? {}).length === 0) D.setAt(this.doc, path, undefined);
        this.render(this.doc);
        this.hooks.onEdit?.(true);
      });
      return el('div', { class: 'list-item' }, this.node(this.resolve(props[key]), p, value[key], { title: key }), remove);
    });
    const free = Object.keys(props).filter((k) => !set.includes(k));
    const add = el('select', { id: `${controlId(path)}-add`, 'aria-label': `add ${node.title ?? 'an option'}` }, el('option', { value: '' }, 'add an option…'), ...free.map((k) => el('option', { value: k, title: plainText(this.resolve(props[k]).description ?? '') }, k)));
    add.addEventListener('change', () => {
      if (!add.value) return;
      const key = add.value;
      const p = [...path, key];
      this.write(p, this.hooks.initial?.(p, this.resolve(props[key])) ?? D.skeleton(this.schema, props[key]), true);
      document.getElementById(controlId(p))?.focus();
    });
    const box = el('fieldset', { class: 'field group', 'data-field': D.pathName(path) }, el('legend', {}, node.title ?? String(path[path.length - 1])));
    if (node.description) box.append(el('p', { class: 'hint' }, ...withCode(node.description)));
    box.append(...rows, add);
    return box;
  }
}
