/**
 * Semantic compatibility of two OpenAPI 3.1 documents (issue 23 §3): which changes from `before` to
 * `after` can break a client written against `before`. Differences are judged by meaning, never by
 * position or wording: descriptions, summaries, examples, tags and the order of anything do not count.
 *
 * Direction decides. An input (parameter, request body) may only widen: a removed or retyped input, an
 * input newly required, a narrowed enum or type, a tightened bound or pattern, unknown keys newly
 * refused are breaking; a new optional input is not. An output (response body) may only narrow: a
 * removed or retyped property, a property that may now be absent or null, a removed success status
 * are breaking; a new property is not. A new enum value is compatible in both directions: clients must
 * tolerate values they do not know (ADR 0008, amendment). Removed error statuses and new statuses of
 * any kind are compatible (the error envelope is one schema; clients branch on `error_code`). New
 * routes are compatible, a removed route or method is breaking.
 *
 * A change inside a component schema is named once by the component (`BulkPublishItem.dataset_id`),
 * however many operations reach it; a change inline in an operation is named by the operation
 * (`GET /api/v1/search query size`).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Schema = JsonObject;

export type OpenApiDocument = {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
};

/** One breaking change: where (component or operation, then a location inside it) and what. */
export interface BreakingChange {
  where: string;
  change: string;
  /** The operations that reach `where` (one for an inline change). */
  operations: string[];
}

/** `where: change`, the name an acknowledgement uses. */
export const changeKey = (c: Pick<BreakingChange, 'where' | 'change'>): string => `${c.where}: ${c.change}`;

type Direction = 'input' | 'output';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** A string as itself, any other value as JSON. */
const text = (value: Json | undefined): string => (typeof value === 'string' ? value : JSON.stringify(value));

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document's operations by `METHOD /path`. */
function operations(doc: OpenApiDocument): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) found.set(`${method.toUpperCase()} ${path}`, op);
    }
  }
  return found;
}

export function breakingChanges(before: OpenApiDocument, after: OpenApiDocument): BreakingChange[] {
  const found = new Map<string, BreakingChange>();
  const report = (where: string, change: string, operation: string) => {
    const key = changeKey({ where, change });
    const entry = found.get(key) ?? { where, change, operations: [] };
    if (!entry.operations.includes(operation)) entry.operations.push(operation);
    found.set(key, entry);
  };
  const afterOps = operations(after);
  for (const [name, oldOp] of operations(before)) {
    const newOp = afterOps.get(name);
    if (!newOp) report(name, 'operation removed', name);
    else new OperationComparison(before, after, name, report).compare(oldOp, newOp);
  }
  return [...found.values()].sort((a, b) => changeKey(a).localeCompare(changeKey(b)));
}

class OperationComparison {
  /** Pairs of component schemas already compared, by direction: recursive schemas end here. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly before: OpenApiDocument,
    private readonly after: OpenApiDocument,
    private readonly operation: string,
    private readonly report: (where: string, change: string, operation: string) => void,
  ) {}

  compare(oldOp: JsonObject, newOp: JsonObject): void {
    this.parameters(oldOp, newOp);
    this.requestBody(oldOp.requestBody, newOp.requestBody);
    this.responses(oldOp.responses, newOp.responses);
  }

  private flag(where: string, change: string): void {
    this.report(where, change, this.operation);
  }

  private parameters(oldOp: JsonObject, newOp: JsonObject): void {
    const byKey = (op: JsonObject) =>
      new Map(
        (Array.isArray(op.parameters) ? op.parameters : [])
          .filter(isObject)
          .map((p) => [`${text(p.in)} ${text(p.name)}`, p] as const),
      );
    const oldParams = byKey(oldOp);
    const newParams = byKey(newOp);
    for (const [key, p] of oldParams) {
      const where = `${this.operation} ${key}`;
      const q = newParams.get(key);
      if (!q) {
        this.flag(where, 'input removed');
        continue;
      }
      if (q.required === true && p.required !== true) this.flag(where, 'input newly required');
      this.schema(p.schema, q.schema, 'input', where);
    }
    for (const [key, q] of newParams) {
      if (!oldParams.has(key) && q.required === true) {
        this.flag(`${this.operation} ${key}`, 'input newly required');
      }
    }
  }

  private requestBody(oldBody: Json | undefined, newBody: Json | undefined): void {
    const where = `${this.operation} request body`;
    if (!isObject(newBody)) {
      if (isObject(oldBody)) this.flag(where, 'input removed');
      return;
    }
    if (!isObject(oldBody)) {
      if (newBody.required === true) this.flag(where, 'input newly required');
      return;
    }
    if (newBody.required === true && oldBody.required !== true) this.flag(where, 'input newly required');
    this.content(oldBody.content, newBody.content, 'input', where);
  }

  private responses(oldResponses: Json | undefined, newResponses: Json | undefined): void {
    const newer = isObject(newResponses) ? newResponses : {};
    for (const [status, oldResponse] of Object.entries(isObject(oldResponses) ? oldResponses : {})) {
      const where = `${this.operation} ${status} response`;
      const newResponse = newer[status];
      if (!isObject(newResponse)) {
        // Fewer failure modes break nobody; a client waiting for this success status does break.
        if (status.startsWith('2')) this.flag(where, 'success status removed');
        continue;
      }
      if (isObject(oldResponse))
        this.content(oldResponse.content, newResponse.content, 'output', `${where} body`);
    }
  }

  private content(oldContent: Json | undefined, newContent: Json | undefined, dir: Direction, where: string) {
    const newer = isObject(newContent) ? newContent : {};
    for (const [mediaType, oldMedia] of Object.entries(isObject(oldContent) ? oldContent : {})) {
      const newMedia = newer[mediaType];
      if (!isObject(newMedia)) this.flag(`${where} ${mediaType}`, 'media type removed');
      else if (isObject(oldMedia)) this.schema(oldMedia.schema, newMedia.schema, dir, where);
    }
  }

  /** Follows `$ref`s (renaming where a component is reached) until an inline schema. */
  private resolve(doc: OpenApiDocument, schema: Json | undefined): { schema: Schema; ref?: string } {
    let ref: string | undefined;
    let current = schema;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
      ref = current.$ref.replace(/^#\/components\/schemas\//, '');
      current = doc.components?.schemas?.[ref] as Json | undefined;
    }
    return { schema: isObject(current) ? current : {}, ref };
  }

  private schema(oldRaw: Json | undefined, newRaw: Json | undefined, dir: Direction, where: string): void {
    const oldSide = this.resolve(this.before, oldRaw);
    const newSide = this.resolve(this.after, newRaw);
    const ref = newSide.ref ?? oldSide.ref;
    if (ref) {
      const pair = `${dir} ${oldSide.ref ?? ''} ${newSide.ref ?? ''}`;
      if (this.seen.has(pair)) return;
      this.seen.add(pair);
      where = ref;
    }
    this.compareSchemas(oldSide.schema, newSide.schema, dir, where);
  }

  private compareSchemas(oldS: Schema, newS: Schema, dir: Direction, where: string): void {
    const oldTypes = types(this.before, oldS);
    const newTypes = types(this.after, newS);
    // What the old side allowed, the new side must allow (input); and the reverse for output.
    const [wide, narrow] = dir === 'input' ? [newTypes, oldTypes] : [oldTypes, newTypes];
    const lost = [...narrow].filter((t) => !allows(wide, t));
    if (lost.includes('null')) {
      this.flag(where, dir === 'input' ? 'null no longer accepted' : 'may now be null');
    }
    const retyped = lost.filter((t) => t !== 'null');
    if (retyped.length > 0) {
      this.flag(
        where,
        dir === 'input' ? `no longer accepts ${retyped.join(', ')}` : `may now be ${retyped.join(', ')}`,
      );
    }
    this.enums(oldS, newS, dir, where);
    if (dir === 'input') this.bounds(oldS, newS, where);
    const [oldBranches, newBranches] = [branches(this.before, oldS), branches(this.after, newS)];
    if (oldBranches.length > 1 || newBranches.length > 1) {
      this.unions(oldBranches, newBranches, dir, where);
      return;
    }
    const [o, n] = [oldBranches[0] ?? oldS, newBranches[0] ?? newS];
    // A nullable schema (`anyOf: [X, null]`) is compared as its X, which may be a `$ref`.
    if (o !== oldS || n !== newS) {
      this.schema(o, n, dir, where);
      return;
    }
    this.objects(o, n, dir, where);
    if (isObject(o.items) || isObject(n.items)) this.schema(o.items, n.items, dir, `${where}[]`);
    if (isObject(o.additionalProperties) && isObject(n.additionalProperties)) {
      this.schema(o.additionalProperties, n.additionalProperties, dir, `${where}{}`);
    }
    if (Array.isArray(o.prefixItems) && Array.isArray(n.prefixItems)) {
      o.prefixItems.forEach((item, i) => {
        const newItem = (n.prefixItems as Json[])[i];
        if (newItem === undefined) this.flag(`${where}[${i}]`, dir === 'input' ? 'input removed' : 'removed');
        else this.schema(item, newItem, dir, `${where}[${i}]`);
      });
    }
  }

  /**
   * Variants of a union are paired by the value of a `const` property (a discriminator), else by
   * position. An input may not lose a variant. A new output variant is, like a new enum value, for
   * clients to tolerate; a variant that changes the JSON type is caught by the type comparison.
   */
  private unions(oldBranches: Schema[], newBranches: Schema[], dir: Direction, where: string): void {
    const keyed = (doc: OpenApiDocument, list: Schema[]) =>
      new Map(list.map((branch, i) => [discriminator(doc, branch) ?? `#${i}`, branch]));
    const [oldByKey, newByKey] = [keyed(this.before, oldBranches), keyed(this.after, newBranches)];
    for (const [key, oldBranch] of oldByKey) {
      const newBranch = newByKey.get(key);
      if (newBranch) this.schema(oldBranch, newBranch, dir, `${where}(${key})`);
      else if (dir === 'input') this.flag(`${where}(${key})`, 'variant no longer accepted');
    }
  }

  private objects(o: Schema, n: Schema, dir: Direction, where: string): void {
    const oldProps = isObject(o.properties) ? o.properties : {};
    const newProps = isObject(n.properties) ? n.properties : {};
    const oldRequired = new Set(Array.isArray(o.required) ? o.required : []);
    const newRequired = new Set(Array.isArray(n.required) ? n.required : []);
    for (const [name, oldProp] of Object.entries(oldProps)) {
      const at = `${where}.${name}`;
      if (!(name in newProps)) {
        this.flag(at, dir === 'input' ? 'input removed' : 'removed');
        continue;
      }
      if (dir === 'input' && newRequired.has(name) && !oldRequired.has(name))
        this.flag(at, 'input newly required');
      if (dir === 'output' && oldRequired.has(name) && !newRequired.has(name))
        this.flag(at, 'may now be absent');
      this.schema(oldProp, newProps[name], dir, at);
    }
    if (dir === 'input') {
      for (const name of newRequired) {
        if (typeof name === 'string' && !(name in oldProps))
          this.flag(`${where}.${name}`, 'input newly required');
      }
      if (
        n.additionalProperties === false &&
        o.additionalProperties !== false &&
        Object.keys(oldProps).length > 0
      ) {
        this.flag(where, 'unknown keys now refused');
      }
    }
  }

  private enums(o: Schema, n: Schema, dir: Direction, where: string): void {
    const oldValues = enumValues(o);
    const newValues = enumValues(n);
    if (dir !== 'input' || !newValues) return;
    // New values are compatible both ways (see the module comment); an input may not lose one.
    if (!oldValues) {
      this.flag(where, 'input narrowed to an enum');
      return;
    }
    const removed = oldValues.filter((v) => !newValues.some((w) => JSON.stringify(w) === JSON.stringify(v)));
    if (removed.length > 0)
      this.flag(where, `enum value removed: ${removed.map((v) => JSON.stringify(v)).join(', ')}`);
  }

  /** Input bounds may only loosen; a new or changed pattern can only be judged as a tightening. */
  private bounds(o: Schema, n: Schema, where: string): void {
    const lower = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
    const upper = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
    for (const key of [...lower, ...upper]) {
      const [a, b] = [o[key], n[key]];
      if (typeof b !== 'number') continue;
      const tighter = typeof a !== 'number' || (lower.includes(key) ? b > a : b < a);
      if (tighter) this.flag(where, `${key} tightened`);
    }
    if (typeof n.pattern === 'string' && n.pattern !== o.pattern) this.flag(where, 'pattern tightened');
  }
}

/** A union's non-null variants (`anyOf`/`oneOf`), or the schema itself. */
function branches(doc: OpenApiDocument, s: Schema): Schema[] {
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (!union) return [s];
  return union.flatMap((b) => {
    const resolved = resolveShallow(doc, b);
    if (resolved.type === 'null' || !isObject(b)) return [];
    return Array.isArray(resolved.anyOf) || Array.isArray(resolved.oneOf) ? branches(doc, resolved) : [b];
  });
}

function resolveShallow(doc: OpenApiDocument, s: Json | undefined): Schema {
  let current = s;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
    current = doc.components?.schemas?.[current.$ref.replace(/^#\/components\/schemas\//, '')] as Json;
  }
  return isObject(current) ? current : {};
}

/** The JSON types a schema allows (every type when it does not say). */
function types(doc: OpenApiDocument, s: Schema, depth = 0): Set<string> {
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union && depth < 32) {
    return new Set(union.flatMap((b) => [...types(doc, resolveShallow(doc, b), depth + 1)]));
  }
  const values = enumValues(s);
  if (values)
    return new Set(values.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : jsonType(v))));
  if (typeof s.type === 'string') return new Set([s.type]);
  if (Array.isArray(s.type)) return new Set(s.type.map(String));
  return new Set(JSON_TYPES);
}

const jsonType = (v: Json): string =>
  Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/** Whether a set of types allows `type` (an integer is a number). */
const allows = (set: Set<string>, type: string) => set.has(type) || (type === 'integer' && set.has('number'));

function enumValues(s: Schema): Json[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ('const' in s) return [s.const];
  return undefined;
}

/** `kind=table` for a variant whose property `kind` is a constant. */
function discriminator(doc: OpenApiDocument, raw: Schema): string | undefined {
  const resolved = resolveShallow(doc, raw);
  const props = isObject(resolved.properties) ? resolved.properties : {};
  for (const [name, prop] of Object.entries(props)) {
    if (isObject(prop) && 'const' in prop) return `${name}=${text(prop.const)}`;
  }
  return undefined;
}
