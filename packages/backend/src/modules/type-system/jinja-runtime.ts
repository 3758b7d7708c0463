/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call --
 * @huggingface/jinja's declaration files import their siblings without extensions, which NodeNext
 * cannot resolve, so every export types as unresolved. This file declares the part of the API the
 * type system uses; nothing else imports the package. */
import * as jinja from '@huggingface/jinja';

/** A lexer token. */
export interface JinjaToken {
  type: string;
  value: string;
}

/** An AST node; the walker narrows by `type`. */
export interface JinjaNode {
  type: string;
}

/** The root of a parsed template. */
export interface JinjaProgram extends JinjaNode {
  body: JinjaNode[];
}

/** A variable scope of the interpreter. */
export interface JinjaEnvironment {
  variables: Map<string, unknown>;
  /** Declares a variable from a plain JS value; throws if it is already declared. */
  set(name: string, value: unknown): unknown;
}

interface JinjaInterpreter {
  run(program: JinjaProgram): { value: unknown };
}

/** What a metered interpreter reports its work to; either method throws to stop the render. */
export interface EvaluationMeter {
  /** `count` AST nodes evaluated or block statements rendered. */
  step(count?: number): void;
  /** `count` characters of text produced, printed or scanned. */
  charge(count: number): void;
  /** Throws unless `count` more characters fit; called before a result is allocated. */
  reserve(count: number): void;
}

/** Splits template source into tokens. */
export const tokenize: (
  source: string,
  options?: { lstrip_blocks?: boolean; trim_blocks?: boolean },
) => JinjaToken[] = jinja.tokenize;
/** Parses tokens into a program. */
export const parse: (tokens: JinjaToken[]) => JinjaProgram = jinja.parse;
/** Creates an empty root scope (the library pre-declares `namespace` in it). */
export const createEnvironment = (): JinjaEnvironment => new jinja.Environment() as JinjaEnvironment;
/** Runs a program in a scope, reporting every step and every character of work to `meter`. */
export const createInterpreter = (environment: JinjaEnvironment, meter: EvaluationMeter): JinjaInterpreter =>
  new MeteredInterpreter(environment, meter);

/** The interpreter's runtime values (`StringValue`, `ArrayValue`, `ObjectValue`, ...), structurally. */
interface RuntimeValue {
  type: string;
  value: unknown;
}
interface StatementNode extends JinjaNode {
  value?: unknown;
}
interface BinaryNode extends JinjaNode {
  operator: { value: string };
  left: JinjaNode;
  right: JinjaNode;
}
interface FilterCallNode extends JinjaNode {
  callee: JinjaNode & { value?: unknown };
  args: JinjaNode[];
}

/** The interpreter methods the meter wraps (public in the library's JavaScript). */
interface InterpreterInternals extends JinjaInterpreter {
  renderBlock(statements: StatementNode[], environment: unknown): string;
  evaluate(node: JinjaNode | undefined, environment: unknown): RuntimeValue;
  applyFilter(operand: RuntimeValue, filter: JinjaNode, environment: unknown): RuntimeValue;
}
const Interpreter = jinja.Interpreter as new (environment: JinjaEnvironment) => InterpreterInternals;

// Statements a block renders without printing an expression's value.
const NOT_PRINTED = new Set(['StringLiteral', 'If', 'For', 'Set', 'Comment']);
// Operators that scan or copy both operands.
const SCANNING_OPERATORS = new Set(['==', '!=', '<', '>', '<=', '>=', '~']);
// Printing a list or object goes through the library's JSON writer, several times slower per character
// than copying a string: it is charged at this multiple of its size.
const CONTAINER_COST = 8;
// Nodes whose string value is new text (the rest pass existing values through).
const PRODUCERS = new Set(['BinaryExpression', 'FilterExpression']);

/**
 * The library's interpreter with a meter on its hot paths, so that work is bounded while it happens:
 * - every block statement and every node evaluation is a step;
 * - literal text, every string an operator or filter produces, and every value printed, compared or
 *   concatenated is charged by its length (lists and objects by a multiple of it);
 * - `join`, the one allowed operation whose output can outgrow its inputs (items × separator), is
 *   computed here after reserving its exact output length, so it never allocates past the budget.
 * Every other allowed operation produces at most a small multiple of inputs that were already charged
 * and bounded, so checking after it returns bounds it too.
 */
class MeteredInterpreter extends Interpreter {
  private readonly meter: EvaluationMeter;
  private readonly printed = new WeakSet<JinjaNode>();
  private readonly scanned = new WeakSet<JinjaNode>();
  private readonly sizes = new WeakMap<object, number>();

  constructor(environment: JinjaEnvironment, meter: EvaluationMeter) {
    super(environment);
    this.meter = meter;
  }

  override renderBlock(statements: StatementNode[], environment: unknown): string {
    let literalChars = 0;
    for (const statement of statements) {
      if (statement.type === 'StringLiteral') literalChars += String(statement.value).length;
      else if (!NOT_PRINTED.has(statement.type)) this.printed.add(statement);
    }
    this.meter.step(1 + statements.length);
    this.meter.charge(literalChars);
    return super.renderBlock(statements, environment);
  }

  override evaluate(node: JinjaNode | undefined, environment: unknown): RuntimeValue {
    this.meter.step();
    if (node?.type === 'BinaryExpression' && SCANNING_OPERATORS.has((node as BinaryNode).operator.value)) {
      this.scanned.add((node as BinaryNode).left);
      this.scanned.add((node as BinaryNode).right);
    }
    const value = super.evaluate(node, environment);
    if (node !== undefined) {
      if (this.printed.has(node) || this.scanned.has(node)) {
        this.meter.charge(this.sizeOf(value));
      } else if (PRODUCERS.has(node.type) && value.type === 'StringValue') {
        this.meter.charge((value.value as string).length);
      }
    }
    return value;
  }

  override applyFilter(operand: RuntimeValue, filter: JinjaNode, environment: unknown): RuntimeValue {
    const call = filter as FilterCallNode;
    if (filter.type === 'CallExpression' && call.callee.value === 'join' && call.args.length === 1) {
      if (operand.type === 'StringValue' || operand.type === 'ArrayValue') {
        const separator = this.evaluate(call.args[0], environment);
        if (separator.type === 'StringValue') return this.join(operand, separator);
      }
    }
    return super.applyFilter(operand, filter, environment);
  }

  /** `items|join(separator)`, its whole output length reserved before it is built. */
  private join(operand: RuntimeValue, separator: RuntimeValue): RuntimeValue {
    const sep = separator.value as string;
    let items: unknown[];
    if (operand.type === 'StringValue') {
      // One item per code point, so at most one per UTF-16 unit: reserved before the split.
      const text = operand.value as string;
      this.meter.reserve(text.length + Math.max(0, text.length - 1) * sep.length);
      items = Array.from(text);
    } else {
      const values = operand.value as RuntimeValue[];
      let itemChars = 0;
      for (const item of values) itemChars += this.sizeOf(item);
      this.meter.reserve(itemChars + Math.max(0, values.length - 1) * sep.length);
      items = values.map((item) => item.value);
    }
    const StringValue = separator.constructor as new (value: string) => RuntimeValue;
    return new StringValue(items.join(sep));
  }

  /** What printing or scanning a value costs, in characters; cached per list or object. */
  private sizeOf(value: RuntimeValue): number {
    switch (value.type) {
      case 'StringValue':
        return (value.value as string).length;
      case 'ArrayValue':
      case 'TupleValue':
      case 'ObjectValue': {
        const cached = this.sizes.get(value);
        if (cached !== undefined) return cached;
        let size = 2;
        const stack: RuntimeValue[] = [value];
        while (stack.length > 0) {
          const container = stack.pop() as RuntimeValue;
          const entries =
            container.value instanceof Map
              ? [...(container.value as Map<string, RuntimeValue>).entries()]
              : (container.value as RuntimeValue[]).map((item): [string, RuntimeValue] => ['', item]);
          for (const [key, item] of entries) {
            size += key.length + 2;
            if (item.value instanceof Map || Array.isArray(item.value)) stack.push(item);
            else size += String(item.value).length;
          }
        }
        this.sizes.set(value, size * CONTAINER_COST);
        return size * CONTAINER_COST;
      }
      default:
        return String(value.value).length;
    }
  }
}
