// What the renderers share: reading a translated type's children, nested paths, default literals, and
// the omissions every schema format without keys reports the same way.
import type { Omissions, TranslatedColumn, TranslatedTable, TranslatedType } from '../translated-table.js';

export interface NamedChild {
  name: string;
  type: TranslatedType;
  nullable: boolean;
}

/** Struct/record/message/object members: the children in slots `field:<name>`, in order. */
export function fieldsOf(type: TranslatedType): NamedChild[] {
  return type.children
    .filter((child) => child.slot?.startsWith('field:') === true)
    .map((child) => ({
      name: child.slot!.slice('field:'.length),
      type: child.type,
      nullable: child.nullable,
    }));
}

/** The child in the first of these slots present (`element`/`item`, `key`, `value`); null when none. */
export function childIn(
  type: TranslatedType,
  ...slots: string[]
): { type: TranslatedType; nullable: boolean } | null {
  for (const slot of slots) {
    const child = type.children.find((candidate) => candidate.slot === slot);
    if (child !== undefined) return { type: child.type, nullable: child.nullable };
  }
  return null;
}

/** Nested paths, as the translation's columns list them: `col.field`, `col[]`, `col{key}`, `col{}`. */
export const paths = {
  field: (path: string, name: string) => `${path}.${name}`,
  element: (path: string) => `${path}[]`,
  key: (path: string) => `${path}{key}`,
  value: (path: string) => `${path}{}`,
};

/** A default expression read as a literal; null when it is an expression (now(), nextval(…), …). */
export type DefaultLiteral =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number; text: string; integer: boolean }
  | { kind: 'string'; value: string };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function defaultLiteral(text: string | null): DefaultLiteral | null {
  if (text === null) return null;
  let expression = text.trim();
  // Wrapping parentheses ((0), ('a')) and a PostgreSQL cast suffix ('a'::text) say nothing more.
  while (expression.startsWith('(') && expression.endsWith(')') && balanced(expression.slice(1, -1)))
    expression = expression.slice(1, -1).trim();
  expression = expression.replace(/::[a-z_][a-z0-9_ ]*(\(\d+(,\s*\d+)?\))?(\[\])?$/i, '').trim();
  if (/^null$/i.test(expression)) return { kind: 'null' };
  if (/^(true|false)$/i.test(expression))
    return { kind: 'boolean', value: expression.toLowerCase() === 'true' };
  if (NUMBER.test(expression)) {
    const value = Number(expression);
    if (!Number.isFinite(value)) return null;
    return { kind: 'number', value, text: expression, integer: /^[+-]?\d+$/.test(expression) };
  }
  const quoted = /^[nN]?'((?:[^']|'')*)'$/.exec(expression);
  if (quoted) return { kind: 'string', value: quoted[1].replace(/''/g, "'") };
  return null;
}

function balanced(inner: string): boolean {
  let depth = 0;
  for (const char of inner) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** A default that only says "no value": NULL on a nullable column, which every format means by absence. */
export function isNullDefault(column: TranslatedColumn): boolean {
  return column.nullable && defaultLiteral(column.default)?.kind === 'null';
}

/** A column whose type has no cast into the target: reported, left out of the output. */
export function reportUnmapped(column: TranslatedColumn, omissions: Omissions, format: string): void {
  const source = column.source_type ?? column.native_type ?? 'its type';
  omissions.add('column', column.name, `${source} has no cast into ${format}: the column is left out`);
}

/** Keys and partitioning for a format that has no place for them (every schema format here). */
export function reportTableConstraints(table: TranslatedTable, omissions: Omissions, format: string): void {
  if (table.primary_key !== null)
    omissions.add(
      'primary_key',
      keyPath(table.primary_key),
      `${format} has no primary keys (columns ${table.primary_key.columns.join(', ')})`,
    );
  for (const key of table.unique_constraints)
    omissions.add(
      'unique',
      keyPath(key),
      `${format} has no unique constraints (columns ${key.columns.join(', ')})`,
    );
  for (const key of table.foreign_keys)
    omissions.add(
      'foreign_key',
      keyPath(key),
      `${format} has no foreign keys (columns ${key.columns.join(', ')})`,
    );
  if (table.partition_columns.length > 0)
    omissions.add(
      'partitioning',
      table.partition_columns.join(', '),
      `${format} has no partitioning: the partition columns are plain fields`,
    );
}

export function keyPath(key: { name: string | null; columns: string[] }): string {
  return key.name ?? key.columns.join(', ');
}

/** Unique names within one scope: a second `a` becomes `a_2`, then `a_3`… (deterministic, in order). */
export class NameScope {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n += 1) candidate = `${name}_${n}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** `order_line items` → `OrderLineItems`; a leading digit gets a `T` before it. */
export function pascalCase(name: string): string {
  const words = splitWords(name);
  const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join('');
  if (joined === '') return 'T';
  return /^\d/.test(joined) ? `T${joined}` : joined;
}

/** `orderLine Items` → `order_line_items`; a leading digit gets an `f_` before it. */
export function snakeCase(name: string): string {
  const joined = splitWords(name)
    .map((word) => word.toLowerCase())
    .join('_');
  if (joined === '') return 'f';
  return /^\d/.test(joined) ? `f_${joined}` : joined;
}

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}
