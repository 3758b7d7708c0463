// A strict parser of the Parquet message-type notation parquetRenderer writes, into the flattened
// Thrift schema (SchemaElement list, root first, depth-first with num_children) a Parquet footer
// holds. It checks the renderer's output (tests write a real file with it) and rejects anything else.

export interface ParquetSchemaElement {
  name: string;
  type?: 'BOOLEAN' | 'INT32' | 'INT64' | 'INT96' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY' | 'FIXED_LEN_BYTE_ARRAY';
  type_length?: number;
  repetition_type?: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  num_children?: number;
  converted_type?: string;
  precision?: number;
  scale?: number;
  logical_type?: { type: string; [param: string]: unknown };
}

const PHYSICAL: Record<string, ParquetSchemaElement['type']> = {
  boolean: 'BOOLEAN',
  int32: 'INT32',
  int64: 'INT64',
  int96: 'INT96',
  float: 'FLOAT',
  double: 'DOUBLE',
  binary: 'BYTE_ARRAY',
  fixed_len_byte_array: 'FIXED_LEN_BYTE_ARRAY',
};
const UNITS = new Set(['MILLIS', 'MICROS', 'NANOS']);

export function parseMessageType(text: string): ParquetSchemaElement[] {
  return new Parser(text).message();
}

class Parser {
  private readonly tokens: string[];
  private at = 0;

  constructor(text: string) {
    this.tokens = text.match(/[A-Za-z0-9_]+|\S/g) ?? [];
  }

  message(): ParquetSchemaElement[] {
    this.expect('message');
    const root: ParquetSchemaElement = { name: this.identifier() };
    this.expect('{');
    const elements: ParquetSchemaElement[] = [root];
    root.num_children = this.fields(elements);
    this.expect('}');
    if (this.at !== this.tokens.length) throw new Error(`unexpected ${this.peek()} after the message`);
    return elements;
  }

  /** Fields until `}`; appends them (and their descendants) and returns how many. */
  private fields(into: ParquetSchemaElement[]): number {
    let count = 0;
    while (this.peek() !== '}') {
      this.field(into);
      count += 1;
    }
    return count;
  }

  private field(into: ParquetSchemaElement[]): void {
    const repetition = this.next();
    if (!['required', 'optional', 'repeated'].includes(repetition))
      throw new Error(`expected a repetition, got ${repetition}`);
    const element: ParquetSchemaElement = {
      name: '',
      repetition_type: repetition.toUpperCase() as ParquetSchemaElement['repetition_type'],
    };
    const kind = this.next();
    if (kind === 'group') {
      element.name = this.identifier();
      if (this.peek() === '(') this.annotation(element);
      this.expect('{');
      into.push(element);
      element.num_children = this.fields(into);
      if (element.num_children === 0) throw new Error(`group ${element.name} has no fields`);
      this.expect('}');
      return;
    }
    const physical = PHYSICAL[kind];
    if (physical === undefined) throw new Error(`unknown primitive type ${kind}`);
    element.type = physical;
    if (physical === 'FIXED_LEN_BYTE_ARRAY') {
      this.expect('(');
      element.type_length = this.integer(1);
      this.expect(')');
    }
    element.name = this.identifier();
    if (this.peek() === '(') this.annotation(element);
    this.expect(';');
    into.push(element);
  }

  private annotation(element: ParquetSchemaElement): void {
    this.expect('(');
    const name = this.identifier();
    const args: string[] = [];
    if (this.peek() === '(') {
      this.next();
      let current = '';
      while (this.peek() !== ')') {
        const token = this.next();
        if (token === ',') {
          args.push(current);
          current = '';
        } else current += token;
      }
      args.push(current);
      this.expect(')');
    }
    this.expect(')');
    annotate(element, name, args);
  }

  private identifier(): string {
    const token = this.next();
    if (!/^[A-Za-z_0-9][A-Za-z0-9_]*$/.test(token)) throw new Error(`expected a name, got ${token}`);
    return token;
  }

  private integer(min: number): number {
    const token = this.next();
    if (!/^\d+$/.test(token) || Number(token) < min) throw new Error(`expected an integer, got ${token}`);
    return Number(token);
  }

  private expect(token: string): void {
    const found = this.next();
    if (found !== token) throw new Error(`expected ${token}, got ${found}`);
  }

  private peek(): string {
    const token = this.tokens[this.at];
    if (token === undefined) throw new Error('unexpected end of the message type');
    return token;
  }

  private next(): string {
    const token = this.peek();
    this.at += 1;
    return token;
  }
}

function annotate(element: ParquetSchemaElement, name: string, args: string[]): void {
  const arity = (n: number) => {
    if (args.length !== n) throw new Error(`${name} takes ${n} arguments, got ${args.length}`);
  };
  const physical = element.type;
  const requirePhysical = (...allowed: (ParquetSchemaElement['type'] | undefined)[]) => {
    if (!allowed.includes(physical)) throw new Error(`${name} cannot annotate ${physical ?? 'a group'}`);
  };
  const bool = (text: string) => {
    if (text !== 'true' && text !== 'false') throw new Error(`expected true or false, got ${text}`);
    return text === 'true';
  };
  const unit = (text: string) => {
    if (!UNITS.has(text)) throw new Error(`unknown time unit ${text}`);
    return text;
  };
  switch (name) {
    case 'STRING':
    case 'JSON':
      arity(0);
      requirePhysical('BYTE_ARRAY');
      element.converted_type = name === 'STRING' ? 'UTF8' : 'JSON';
      element.logical_type = { type: name };
      return;
    case 'LIST':
    case 'MAP':
      arity(0);
      requirePhysical(undefined);
      element.converted_type = name;
      element.logical_type = { type: name };
      return;
    case 'DECIMAL': {
      arity(2);
      requirePhysical('INT32', 'INT64', 'FIXED_LEN_BYTE_ARRAY', 'BYTE_ARRAY');
      const precision = Number(args[0]);
      const scale = Number(args[1]);
      if (!(precision >= 1 && scale >= 0 && scale <= precision))
        throw new Error(`bad DECIMAL(${args.join(',')})`);
      const limit = physical === 'INT32' ? 9 : physical === 'INT64' ? 18 : Infinity;
      if (precision > limit) throw new Error(`DECIMAL(${precision}) does not fit ${physical}`);
      if (
        physical === 'FIXED_LEN_BYTE_ARRAY' &&
        precision > Math.floor(Math.log10(2) * (8 * element.type_length! - 1))
      )
        throw new Error(`DECIMAL(${precision}) does not fit ${element.type_length} bytes`);
      Object.assign(element, { converted_type: 'DECIMAL', precision, scale });
      element.logical_type = { type: 'DECIMAL', precision, scale };
      return;
    }
    case 'DATE':
      arity(0);
      requirePhysical('INT32');
      element.converted_type = 'DATE';
      element.logical_type = { type: 'DATE' };
      return;
    case 'TIME':
    case 'TIMESTAMP': {
      arity(2);
      const timeUnit = unit(args[0]);
      const utc = bool(args[1]);
      requirePhysical(name === 'TIME' && timeUnit === 'MILLIS' ? 'INT32' : 'INT64');
      if (timeUnit !== 'NANOS' && (name === 'TIME' || utc)) element.converted_type = `${name}_${timeUnit}`;
      element.logical_type = { type: name, isAdjustedToUTC: utc, unit: timeUnit };
      return;
    }
    case 'INTEGER': {
      arity(2);
      const bitWidth = Number(args[0]);
      const isSigned = bool(args[1]);
      if (![8, 16, 32, 64].includes(bitWidth)) throw new Error(`bad INTEGER width ${args[0]}`);
      requirePhysical(bitWidth === 64 ? 'INT64' : 'INT32');
      element.converted_type = `${isSigned ? 'INT' : 'UINT'}_${bitWidth}`;
      element.logical_type = { type: 'INTEGER', bitWidth, isSigned };
      return;
    }
    case 'UUID':
    case 'FLOAT16':
      arity(0);
      requirePhysical('FIXED_LEN_BYTE_ARRAY');
      if (element.type_length !== (name === 'UUID' ? 16 : 2))
        throw new Error(`${name} needs ${name === 'UUID' ? 16 : 2} bytes`);
      element.logical_type = { type: name };
      return;
    case 'INTERVAL':
      arity(0);
      requirePhysical('FIXED_LEN_BYTE_ARRAY');
      if (element.type_length !== 12) throw new Error('INTERVAL needs 12 bytes');
      element.converted_type = 'INTERVAL';
      return;
    case 'UNKNOWN':
      arity(0);
      element.logical_type = { type: 'NULL' };
      return;
    case 'VARIANT':
      requirePhysical(undefined);
      element.logical_type =
        args.length === 0 ? { type: 'VARIANT' } : { type: 'VARIANT', specification_version: Number(args[0]) };
      return;
    case 'GEOMETRY':
    case 'GEOGRAPHY':
      requirePhysical('BYTE_ARRAY');
      element.logical_type = args.length === 0 ? { type: name } : { type: name, crs: args.join(',') };
      return;
    default:
      throw new Error(`unknown annotation ${name}`);
  }
}
