import { parse, tokenize, type JinjaNode, type JinjaProgram, type JinjaToken } from './jinja-runtime.js';
import { TemplateError } from './template-error.js';
import {
  ALLOWED_BINARY_OPERATORS,
  ALLOWED_FILTERS,
  ALLOWED_TESTS,
  BLOCK_CLOSERS,
  BLOCK_MIDDLES,
  BLOCK_OPENERS,
  CONSTANT_NAMES,
  DENIED_ATTRIBUTES,
  DENIED_NAMES,
  FIELD_ATTRIBUTES,
  FILTER_MAX_ARGS,
  LOOP_ATTRIBUTES,
  NODE_DESCRIPTIONS,
  SAFE_NAME,
  TEMPLATE_CONTEXT_VARIABLES,
} from './template-policy.js';
import { MAX_EXPRESSION_DEPTH, MAX_NESTING_DEPTH, MAX_TEMPLATE_CHARS } from './template-limits.js';

export { TEMPLATE_CONTEXT_VARIABLES } from './template-policy.js';

/** A parsed template (the @huggingface/jinja AST root). */
export type TemplateProgram = JinjaProgram;
type Token = JinjaToken;

/** Options of {@link validateTemplate}. */
export interface TemplateValidationOptions {
  /**
   * When given, every variable the template reads must be one of these (plus the loop variable and
   * `loop` inside `{% for %}`, and `true`/`false`/`none`). Catches typos such as `{{ lenght }}`.
   */
  knownVariables?: Iterable<string>;
}

// The AST classes are not exported by the package; these structural views cover what the walker reads.
type Node = JinjaNode;
interface ValueNode<T> extends Node {
  value: T;
}
interface IfNode extends Node {
  test: Node;
  body: Node[];
  alternate: Node[];
}
interface ForNode extends Node {
  loopvar: Node;
  iterable: Node;
  body: Node[];
  defaultBlock: Node[];
}
interface MemberNode extends Node {
  object: Node;
  property: Node;
  computed: boolean;
}
interface BinaryNode extends Node {
  operator: { value: string };
  left: Node;
  right: Node;
}
interface UnaryNode extends Node {
  operator: { value: string };
  argument: Node;
}
interface TestNode extends Node {
  operand: Node;
  test: ValueNode<string>;
}
interface FilterNode extends Node {
  operand: Node;
  filter: Node;
}
interface CallNode extends Node {
  callee: Node;
  args: Node[];
}
interface TernaryNode extends Node {
  condition: Node;
  trueExpr: Node;
  falseExpr: Node;
}
interface SelectNode extends Node {
  lhs: Node;
  test: Node;
}

interface Scope {
  loopVar: string | null;
  known: ReadonlySet<string> | null;
}

/**
 * Checks a `render_template` against the sandbox policy and returns its parsed program.
 *
 * Allowed: text, `{{ expr }}`, `{# comments #}`, `{% if/elif/else %}`, and `{% for f in fields %}` (not
 * nested) with `loop.index|index0|revindex|revindex0|first|last|length`. Expressions: variables,
 * `params.<name>`, `<loopvar>.name|type`, string/number literals, `and`/`or`/`not`, comparisons, `~`,
 * inline `a if c else b`, the tests `defined undefined none number integer string boolean true false`,
 * and the filters `upper lower trim length join default`. Everything else — calls, `set`, macros,
 * includes, arithmetic, subscripts, `_`-prefixed or prototype-related names — is a {@link TemplateError}.
 */
export function compileTemplate(template: string, options: TemplateValidationOptions = {}): TemplateProgram {
  if (typeof template !== 'string') {
    throw new TemplateError('template must be a string');
  }
  if (template.length > MAX_TEMPLATE_CHARS) {
    throw new TemplateError(`template is longer than ${MAX_TEMPLATE_CHARS} characters`);
  }
  const tokens = tokenizeOrThrow(template);
  checkTokens(tokens);
  const program = parseOrThrow(tokens);
  const known = options.knownVariables === undefined ? null : new Set(options.knownVariables);
  checkStatements(program.body, { loopVar: null, known }, 0);
  return program;
}

/**
 * Throws a {@link TemplateError} unless `template` is valid Jinja2 within the sandbox policy of
 * {@link compileTemplate}.
 */
export function validateTemplate(template: string, options: TemplateValidationOptions = {}): void {
  compileTemplate(template, options);
}

function tokenizeOrThrow(template: string): Token[] {
  try {
    return tokenize(template, { lstrip_blocks: true, trim_blocks: true });
  } catch (err) {
    throw new TemplateError(`template syntax error: ${messageOf(err)}`, { cause: err });
  }
}

function parseOrThrow(tokens: Token[]): TemplateProgram {
  try {
    return parse(tokens);
  } catch (err) {
    throw new TemplateError(`template syntax error: ${messageOf(err)}`, { cause: err });
  }
}

/** Statement whitelist and nesting limits, checked on tokens so the recursive parser never sees a deep input. */
function checkTokens(tokens: Token[]): void {
  let blockDepth = 0;
  let bracketDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case 'OpenStatement': {
        const keyword = tokens[i + 1];
        if (keyword?.type !== 'Identifier') {
          throw new TemplateError('template syntax error: expected a statement name after {%');
        }
        if (BLOCK_OPENERS.has(keyword.value)) {
          blockDepth++;
          if (blockDepth > MAX_NESTING_DEPTH) {
            throw new TemplateError(`template nests blocks deeper than ${MAX_NESTING_DEPTH} levels`);
          }
        } else if (BLOCK_CLOSERS.has(keyword.value)) {
          blockDepth--;
        } else if (!BLOCK_MIDDLES.has(keyword.value)) {
          throw new TemplateError(`{% ${keyword.value} %} is not allowed in type templates`);
        }
        break;
      }
      case 'OpenParen':
      case 'OpenSquareBracket':
      case 'OpenCurlyBracket':
        bracketDepth++;
        if (bracketDepth > MAX_NESTING_DEPTH) {
          throw new TemplateError(`template nests brackets deeper than ${MAX_NESTING_DEPTH} levels`);
        }
        break;
      case 'CloseParen':
      case 'CloseSquareBracket':
      case 'CloseCurlyBracket':
        bracketDepth--;
        break;
      case 'OpenExpression':
      case 'CloseExpression':
        bracketDepth = 0;
        break;
      default:
        break;
    }
    if (blockDepth < 0) {
      throw new TemplateError('template syntax error: {% endif %} or {% endfor %} without an open block');
    }
  }
  if (blockDepth > 0) {
    throw new TemplateError('template syntax error: unclosed {% if %} or {% for %} block');
  }
}

/**
 * Whether `name` cannot be used as a template variable (so neither as a parameter name): not a plain
 * identifier, a Jinja/Flask global, a constant, `loop`, or one of {@link TEMPLATE_CONTEXT_VARIABLES}.
 */
export function isReservedTemplateName(name: string): boolean {
  return (
    !SAFE_NAME.test(name) ||
    DENIED_NAMES.has(name) ||
    CONSTANT_NAMES.has(name) ||
    name === 'loop' ||
    (TEMPLATE_CONTEXT_VARIABLES as readonly string[]).includes(name)
  );
}

function checkStatements(statements: Node[], scope: Scope, depth: number): void {
  for (const statement of statements) {
    checkStatement(statement, scope, depth);
  }
}

function checkStatement(node: Node, scope: Scope, depth: number): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw new TemplateError(`template is nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  }
  switch (node.type) {
    case 'Comment':
      return;
    case 'StringLiteral': // literal text between tags
      return;
    case 'If': {
      const ifNode = node as IfNode;
      checkExpression(ifNode.test, scope, depth + 1);
      checkStatements(ifNode.body, scope, depth + 1);
      checkStatements(ifNode.alternate, scope, depth + 1);
      return;
    }
    case 'For':
      checkFor(node as ForNode, scope, depth);
      return;
    default:
      checkExpression(node, scope, depth);
  }
}

function checkFor(node: ForNode, scope: Scope, depth: number): void {
  if (scope.loopVar !== null) {
    throw new TemplateError('{% for %} loops cannot be nested');
  }
  if (node.loopvar.type !== 'Identifier') {
    throw new TemplateError('{% for %} needs a single loop variable');
  }
  const loopVar = (node.loopvar as ValueNode<string>).value;
  checkName(loopVar);
  if (
    loopVar === 'loop' ||
    CONSTANT_NAMES.has(loopVar) ||
    (TEMPLATE_CONTEXT_VARIABLES as readonly string[]).includes(loopVar)
  ) {
    throw new TemplateError(`'${loopVar}' cannot be a loop variable`);
  }
  if (node.iterable.type !== 'Identifier' || (node.iterable as ValueNode<string>).value !== 'fields') {
    throw new TemplateError('{% for %} may only iterate over fields');
  }
  checkStatements(node.body, { ...scope, loopVar }, depth + 1);
  checkStatements(node.defaultBlock, scope, depth + 1);
}

function checkExpression(node: Node, scope: Scope, depth: number): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw new TemplateError(`template is nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  }
  const next = depth + 1;
  switch (node.type) {
    case 'StringLiteral':
    case 'IntegerLiteral':
    case 'FloatLiteral':
      return;
    case 'Identifier':
      checkVariable((node as ValueNode<string>).value, scope);
      return;
    case 'MemberExpression':
      checkMember(node as MemberNode, scope);
      return;
    case 'BinaryExpression': {
      const binary = node as BinaryNode;
      if (!ALLOWED_BINARY_OPERATORS.has(binary.operator.value)) {
        throw new TemplateError(`operator '${binary.operator.value}' is not allowed in type templates`);
      }
      checkExpression(binary.left, scope, next);
      checkExpression(binary.right, scope, next);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as UnaryNode;
      if (unary.operator.value !== 'not') {
        throw new TemplateError(`operator '${unary.operator.value}' is not allowed in type templates`);
      }
      checkExpression(unary.argument, scope, next);
      return;
    }
    case 'TestExpression': {
      const test = node as TestNode;
      if (!ALLOWED_TESTS.has(test.test.value)) {
        throw new TemplateError(`test 'is ${test.test.value}' is not allowed in type templates`);
      }
      checkExpression(test.operand, scope, next);
      return;
    }
    case 'FilterExpression':
      checkFilter(node as FilterNode, scope, next);
      return;
    case 'Ternary': {
      const ternary = node as TernaryNode;
      checkExpression(ternary.condition, scope, next);
      checkExpression(ternary.trueExpr, scope, next);
      checkExpression(ternary.falseExpr, scope, next);
      return;
    }
    case 'SelectExpression': {
      const select = node as SelectNode;
      checkExpression(select.lhs, scope, next);
      checkExpression(select.test, scope, next);
      return;
    }
    default:
      throw new TemplateError(`not allowed in type templates: ${NODE_DESCRIPTIONS[node.type] ?? node.type}`);
  }
}

function checkFilter(node: FilterNode, scope: Scope, depth: number): void {
  checkExpression(node.operand, scope, depth);
  let name: string;
  let args: Node[] = [];
  if (node.filter.type === 'Identifier') {
    name = (node.filter as ValueNode<string>).value;
  } else if (
    node.filter.type === 'CallExpression' &&
    (node.filter as CallNode).callee.type === 'Identifier'
  ) {
    const call = node.filter as CallNode;
    name = (call.callee as ValueNode<string>).value;
    args = call.args;
    if (args.length > (FILTER_MAX_ARGS.get(name) ?? 0)) {
      throw new TemplateError(`filter '${name}' does not take ${args.length} argument(s) here`);
    }
  } else {
    throw new TemplateError('only named filters are allowed in type templates');
  }
  if (!ALLOWED_FILTERS.has(name)) {
    throw new TemplateError(`filter '${name}' is not allowed in type templates`);
  }
  for (const arg of args) {
    checkExpression(arg, scope, depth + 1);
  }
}

function checkMember(node: MemberNode, scope: Scope): void {
  if (node.computed) {
    throw new TemplateError('subscripts (x[...]) are not allowed in type templates; use x.name');
  }
  if (node.property.type !== 'Identifier') {
    throw new TemplateError('attribute access needs a name');
  }
  const attribute = (node.property as ValueNode<string>).value;
  checkAttributeName(attribute);
  if (node.object.type !== 'Identifier') {
    throw new TemplateError('attribute access is only allowed one level deep (params.x, loop.x, field.x)');
  }
  const object = (node.object as ValueNode<string>).value;
  checkName(object);
  if (object === 'params') {
    if (scope.known !== null && !scope.known.has(attribute)) {
      throw new TemplateError(`unknown parameter 'params.${attribute}'`);
    }
    return;
  }
  if (object === 'loop' && scope.loopVar !== null) {
    if (!LOOP_ATTRIBUTES.has(attribute)) {
      throw new TemplateError(
        `loop.${attribute} is not allowed; use one of ${[...LOOP_ATTRIBUTES].join(', ')}`,
      );
    }
    return;
  }
  if (object === scope.loopVar) {
    if (!FIELD_ATTRIBUTES.has(attribute)) {
      throw new TemplateError(
        `${object}.${attribute} is not allowed; a field has ${[...FIELD_ATTRIBUTES].join(' and ')}`,
      );
    }
    return;
  }
  throw new TemplateError(
    `attribute access on '${object}' is not allowed (only params, loop and the loop variable)`,
  );
}

function checkVariable(name: string, scope: Scope): void {
  checkName(name);
  if (CONSTANT_NAMES.has(name) || name === scope.loopVar) {
    return;
  }
  if (name === 'loop') {
    if (scope.loopVar === null) {
      throw new TemplateError("'loop' is only defined inside {% for %}");
    }
    return;
  }
  if (scope.known !== null && !scope.known.has(name)) {
    throw new TemplateError(`unknown variable '${name}'`);
  }
}

function checkName(name: string): void {
  if (!SAFE_NAME.test(name)) {
    throw new TemplateError(`name '${name}' is not allowed (names must start with a letter)`);
  }
  if (DENIED_NAMES.has(name)) {
    throw new TemplateError(`'${name}' is not available in type templates`);
  }
}

function checkAttributeName(name: string): void {
  if (!SAFE_NAME.test(name) || DENIED_ATTRIBUTES.has(name)) {
    throw new TemplateError(`attribute '${name}' is not allowed`);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
