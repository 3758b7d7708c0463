import { TemplateError } from './template-error.js';
import { MAX_CONTEXT_CHARS, MAX_FIELDS } from './template-limits.js';

/** One struct member, its type already rendered. */
export interface RenderedField {
  name: string;
  type: string;
}

/** What a data type's template is rendered with. */
export interface TemplateContext {
  /** The type instance's `type_params`; each is also a top-level variable (`{{ length }}`). */
  params?: Record<string, unknown> | null;
  /** Rendered children by slot: `item`/`element` (arrays, lists), `key`/`value` (maps). */
  children?: Record<string, string>;
  /** Rendered struct members (`field:<name>` slots), in order. */
  fields?: RenderedField[];
}

/** A child of a type instance and its rendered text. */
export interface RenderedChild {
  slot: string;
  rendered: string;
}

const CHILD_SLOTS = new Set(['item', 'element', 'key', 'value']);
const FIELD_SLOT_PREFIX = 'field:';
const MAX_DEPTH = 4;

/**
 * Builds a {@link TemplateContext} from a node's params and its rendered children: `field:<name>`
 * slots become `fields` (in the given order), the other slots become `children`.
 */
export function buildTemplateContext(
  params: Record<string, unknown> | null | undefined,
  children: readonly RenderedChild[],
): TemplateContext {
  const bySlot: Record<string, string> = Object.create(null) as Record<string, string>;
  const fields: RenderedField[] = [];
  for (const child of children) {
    if (child.slot.startsWith(FIELD_SLOT_PREFIX)) {
      fields.push({ name: child.slot.slice(FIELD_SLOT_PREFIX.length), type: child.rendered });
    } else if (CHILD_SLOTS.has(child.slot)) {
      bySlot[child.slot] = child.rendered;
    } else {
      throw new TemplateError(`unknown child slot '${child.slot}'`);
    }
  }
  return { params: params ?? null, children: bySlot, fields };
}

/**
 * The variables a template sees, as JSON data only: null-prototype objects, arrays, strings, finite
 * numbers, booleans and null. Params set to null are left out. Precedence, lowest first: each param,
 * each child slot, `params`, `fields`.
 */
export function toTemplateVariables(context: TemplateContext): Record<string, unknown> {
  const budget = { chars: 0 };
  const variables = Object.create(null) as Record<string, unknown>;
  const params = toJsonData(context.params ?? {}, 'params', 0, budget);
  if (!isRecord(params)) {
    throw new TemplateError('params must be an object');
  }
  // A null param is an absent one (as in the original), so `is defined` guards it.
  for (const [name, value] of Object.entries(params)) {
    if (value === null) {
      delete params[name];
    }
  }
  for (const [name, value] of Object.entries(params)) {
    variables[name] = value;
  }
  for (const [slot, rendered] of Object.entries(context.children ?? {})) {
    if (typeof rendered !== 'string') {
      throw new TemplateError(`child '${slot}' must be rendered text`);
    }
    variables[slot] = toJsonData(rendered, slot, 0, budget);
  }
  variables['params'] = params;
  const fields = context.fields ?? [];
  if (!Array.isArray(fields) || fields.length > MAX_FIELDS) {
    throw new TemplateError(`fields must be a list of at most ${MAX_FIELDS} entries`);
  }
  variables['fields'] = fields.map((field: RenderedField, index) => {
    if (typeof field?.name !== 'string' || typeof field.type !== 'string') {
      throw new TemplateError(`fields[${index}] must have a string name and type`);
    }
    return toJsonData({ name: field.name, type: field.type }, `fields[${index}]`, 0, budget);
  });
  return variables;
}

function toJsonData(value: unknown, path: string, depth: number, budget: { chars: number }): unknown {
  if (depth > MAX_DEPTH) {
    throw new TemplateError(`render context is nested too deeply at ${path}`);
  }
  switch (typeof value) {
    case 'string':
      budget.chars += value.length;
      if (budget.chars > MAX_CONTEXT_CHARS) {
        throw new TemplateError(`render context holds more than ${MAX_CONTEXT_CHARS} characters of text`);
      }
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        throw new TemplateError(`${path} must be a finite number`);
      }
      return value;
    case 'object':
      break;
    default:
      throw new TemplateError(`${path} is not JSON data`);
  }
  if (value === null) {
    return null;
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_FIELDS) {
      throw new TemplateError(`${path} has more than ${MAX_FIELDS} items`);
    }
    return value.map((item, index) => toJsonData(item, `${path}[${index}]`, depth + 1, budget));
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new TemplateError(`${path} is not JSON data`);
  }
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) {
      budget.chars += key.length;
      copy[key] = toJsonData(item, `${path}.${key}`, depth + 1, budget);
    }
  }
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
