// What SQLite's pragmas do not say — constraint names, CHECK expressions, explicit collations,
// generated-column expressions, AUTOINCREMENT, WITHOUT ROWID, view and index bodies — is read from
// the CREATE statements SQLite keeps verbatim in sqlite_schema.sql. A small tokenizer (strings,
// quoted identifiers, comments, nested parentheses) is enough: the statements are already valid.

interface Token {
  /** Upper-cased keyword, or the unquoted identifier / literal text. */
  value: string;
  /** True for "x", `x`, [x] and 'x' tokens (never keywords). */
  quoted: boolean;
  start: number;
  end: number;
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const char = sql[i];
    if (/\s/.test(char)) {
      i++;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (char === '"' || char === '`' || char === "'" || char === '[') {
      const close = char === '[' ? ']' : char;
      let j = i + 1;
      let value = '';
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) {
            value += close;
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j];
        j++;
      }
      tokens.push({ value, quoted: true, start: i, end: j + 1 });
      i = j + 1;
    } else if (/[\p{L}\p{N}_$]/u.test(char)) {
      let j = i;
      while (j < sql.length && /[\p{L}\p{N}_$]/u.test(sql[j])) j++;
      tokens.push({ value: sql.slice(i, j), quoted: false, start: i, end: j });
      i = j;
    } else {
      tokens.push({ value: char, quoted: false, start: i, end: i + 1 });
      i++;
    }
  }
  return tokens;
}

const is = (token: Token | undefined, ...words: string[]): boolean =>
  token !== undefined && !token.quoted && words.includes(token.value.toUpperCase());

/** The tokens of each top-level comma-separated item between tokens[open] = '(' and its ')'. */
function itemsInParens(tokens: Token[], open: number): { items: Token[][]; close: number } {
  const items: Token[][] = [[]];
  let depth = 0;
  for (let i = open + 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token.quoted && token.value === '(') depth++;
    if (!token.quoted && token.value === ')') {
      if (depth === 0) return { items: items.filter((item) => item.length > 0), close: i };
      depth--;
    }
    if (depth === 0 && !token.quoted && token.value === ',') items.push([]);
    else items[items.length - 1].push(token);
  }
  return { items: items.filter((item) => item.length > 0), close: tokens.length };
}

/** The index of the ')' matching tokens[open]. */
function matching(tokens: Token[], open: number): number {
  return itemsInParens(tokens, open).close;
}

/** Source text from token `from` to token `to` (inclusive), as written. */
function text(sql: string, tokens: Token[], from: number, to: number): string {
  return sql.slice(tokens[from].start, tokens[to].end);
}

export interface ParsedColumn {
  name: string;
  collation: string | null;
  generated: string | null;
  autoincrement: boolean;
}

export interface ParsedTable {
  columns: Map<string, ParsedColumn>;
  primaryKeyName: string | null;
  uniques: { name: string | null; columns: string[] }[];
  foreignKeys: { name: string | null; columns: string[]; table: string }[];
  checks: { name: string | null; expression: string }[];
  withoutRowid: boolean;
}

const COLUMN_CONSTRAINT_START = [
  'CONSTRAINT',
  'PRIMARY',
  'NOT',
  'NULL',
  'UNIQUE',
  'CHECK',
  'DEFAULT',
  'COLLATE',
  'REFERENCES',
  'GENERATED',
  'AS',
];

/** Reads a CREATE TABLE statement; null when it is not one this parser understands. */
export function parseCreateTable(sql: string): ParsedTable | null {
  const tokens = tokenize(sql);
  const open = tokens.findIndex((t) => !t.quoted && t.value === '(');
  if (open === -1 || !is(tokens[0], 'CREATE')) return null;
  const { items, close } = itemsInParens(tokens, open);
  const table: ParsedTable = {
    columns: new Map(),
    primaryKeyName: null,
    uniques: [],
    foreignKeys: [],
    checks: [],
    withoutRowid: tokens.slice(close + 1).some((t, i, rest) => is(t, 'WITHOUT') && is(rest[i + 1], 'ROWID')),
  };
  for (const item of items) {
    const first = item[0];
    const constraintName = is(first, 'CONSTRAINT') ? item[1].value : null;
    const body = constraintName === null ? item : item.slice(2);
    if (is(body[0], 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN')) {
      tableConstraint(sql, tokens, body, constraintName, table);
    } else {
      columnDefinition(sql, tokens, item, table);
    }
  }
  return table;
}

/** Column names of a `( a, b COLLATE x DESC )` list starting at item[at]. */
function nameList(tokens: Token[], item: Token[], at: number): string[] {
  const open = tokens.indexOf(item[at]);
  return itemsInParens(tokens, open).items.map((part) => part[0].value);
}

function tableConstraint(
  sql: string,
  tokens: Token[],
  body: Token[],
  name: string | null,
  table: ParsedTable,
): void {
  const open = body.findIndex((t) => !t.quoted && t.value === '(');
  if (open === -1) return;
  if (is(body[0], 'PRIMARY')) {
    table.primaryKeyName = name;
  } else if (is(body[0], 'UNIQUE')) {
    table.uniques.push({ name, columns: nameList(tokens, body, open) });
  } else if (is(body[0], 'CHECK')) {
    const start = tokens.indexOf(body[open]);
    table.checks.push({ name, expression: text(sql, tokens, start + 1, matching(tokens, start) - 1) });
  } else {
    const references = body.findIndex((t) => is(t, 'REFERENCES'));
    table.foreignKeys.push({
      name,
      columns: nameList(tokens, body, open),
      table: body[references + 1]?.value ?? '',
    });
  }
}

function columnDefinition(sql: string, tokens: Token[], item: Token[], table: ParsedTable): void {
  const column: ParsedColumn = {
    name: item[0].value,
    collation: null,
    generated: null,
    autoincrement: false,
  };
  table.columns.set(column.name, column);
  let name: string | null = null;
  for (let i = 1; i < item.length; i++) {
    const token = item[i];
    if (!token.quoted && token.value === '(') {
      // A type's (p, s), a DEFAULT (expression), a REFERENCES t (columns): nothing to read inside.
      i = positionIn(item, tokens[matching(tokens, tokens.indexOf(token))]);
      continue;
    }
    if (!COLUMN_CONSTRAINT_START.includes(token.quoted ? '' : token.value.toUpperCase())) continue;
    switch (token.value.toUpperCase()) {
      case 'CONSTRAINT':
        name = item[i + 1]?.value ?? null;
        i++;
        continue;
      case 'PRIMARY':
        table.primaryKeyName = name;
        if (item.slice(i).some((t) => is(t, 'AUTOINCREMENT'))) column.autoincrement = true;
        break;
      case 'UNIQUE':
        table.uniques.push({ name, columns: [column.name] });
        break;
      case 'COLLATE':
        column.collation = item[i + 1]?.value ?? null;
        break;
      case 'REFERENCES':
        table.foreignKeys.push({ name, columns: [column.name], table: item[i + 1]?.value ?? '' });
        break;
      case 'CHECK':
      case 'AS': {
        const open = tokens.indexOf(item[i + 1]);
        if (item[i + 1]?.value !== '(') break;
        const close = matching(tokens, open);
        const expression = text(sql, tokens, open + 1, close - 1);
        if (token.value.toUpperCase() === 'CHECK') table.checks.push({ name, expression });
        else column.generated = expression;
        i = positionIn(item, tokens[close]);
        break;
      }
      default:
        break;
    }
    name = null;
  }
}

/** Where `token` is in `item` (its end when absent, which ends the scan). */
function positionIn(item: Token[], token: Token | undefined): number {
  const index = token === undefined ? -1 : item.indexOf(token);
  return index === -1 ? item.length : index;
}

/** The SELECT of a CREATE VIEW statement (after its top-level AS). */
export function viewBody(sql: string): string | null {
  const tokens = tokenize(sql);
  let depth = 0;
  for (const token of tokens) {
    if (!token.quoted && token.value === '(') depth++;
    if (!token.quoted && token.value === ')') depth--;
    if (depth === 0 && is(token, 'AS')) return sql.slice(token.end).trim().replace(/;$/, '');
  }
  return null;
}

/** The key parts and WHERE clause of a CREATE INDEX statement. */
export function parseCreateIndex(sql: string): { parts: string[]; predicate: string | null } | null {
  const tokens = tokenize(sql);
  const open = tokens.findIndex((t) => !t.quoted && t.value === '(');
  if (open === -1) return null;
  const { items, close } = itemsInParens(tokens, open);
  const where = tokens.findIndex((t, i) => i > close && is(t, 'WHERE'));
  return {
    parts: items.map((part) => sql.slice(part[0].start, part[part.length - 1].end)),
    predicate: where === -1 ? null : sql.slice(tokens[where].end).trim().replace(/;$/, ''),
  };
}
