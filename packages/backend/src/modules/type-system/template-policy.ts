// The sandbox policy of type templates: what the validator lets through. Adding to these lists widens
// what user-written templates can reach; each entry must be pure data access on the render context.

/** Variables a template may read besides the type's parameters. */
export const TEMPLATE_CONTEXT_VARIABLES = ['params', 'item', 'element', 'key', 'value', 'fields'] as const;

/**
 * Statement keywords allowed after `{%`; everything else (set, macro, call, filter, include, import,
 * extends, block, raw, with, ...) is rejected before parsing.
 */
export const BLOCK_OPENERS = new Set(['if', 'for']);
/** Closers of {@link BLOCK_OPENERS}. */
export const BLOCK_CLOSERS = new Set(['endif', 'endfor']);
/** Keywords inside an open block. */
export const BLOCK_MIDDLES = new Set(['elif', 'else']);
/** Names bound to constants in every render. */
export const CONSTANT_NAMES = new Set(['true', 'false', 'none', 'True', 'False', 'None']);
/** Globals of Jinja, Flask and @huggingface/jinja: never data, so never readable even if a param had the name. */
export const DENIED_NAMES = new Set([
  'self',
  'lipsum',
  'config',
  'request',
  'session',
  'g',
  'url_for',
  'get_flashed_messages',
  'cycler',
  'joiner',
  'namespace',
  'range',
  'dict',
  'caller',
  'varargs',
  'kwargs',
  'raise_exception',
  'strftime_now',
  'super',
  'globals',
  'builtins',
  'process',
  'require',
  'module',
  'constructor',
  'prototype',
]);
/** Attribute names never readable: prototype plumbing, Python introspection, and interpreter methods. */
export const DENIED_ATTRIBUTES = new Set([
  'constructor',
  'prototype',
  'mro',
  'globals',
  'builtins',
  'subclasses',
  'bases',
  'func_globals',
  'func_code',
  'f_globals',
  'f_locals',
  'f_back',
  'gi_frame',
  'gi_code',
  'cr_frame',
  'tb_frame',
  'im_func',
  'caller',
  'callee',
  'arguments',
  'apply',
  'call',
  'bind',
  'valueOf',
  'toString',
  'toJSON',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  // Methods of the interpreter's object values: reading one without calling it would print its JS source.
  'get',
  'items',
  'keys',
  'values',
  'dictsort',
]);
/** Readable attributes of `loop` inside `{% for %}`. */
export const LOOP_ATTRIBUTES = new Set([
  'index',
  'index0',
  'revindex',
  'revindex0',
  'first',
  'last',
  'length',
]);
/** Attributes of one `fields` entry. */
export const FIELD_ATTRIBUTES = new Set(['name', 'type']);
/** Binary operators: logic, comparison and string concatenation (`~`); no arithmetic, so no output growth. */
export const ALLOWED_BINARY_OPERATORS = new Set(['and', 'or', '==', '!=', '<', '>', '<=', '>=', '~']);
/** Tests usable after `is`. */
export const ALLOWED_TESTS = new Set([
  'defined',
  'undefined',
  'none',
  'number',
  'integer',
  'string',
  'boolean',
  'true',
  'false',
]);
/** Filters usable after `|`. */
export const ALLOWED_FILTERS = new Set(['upper', 'lower', 'trim', 'length', 'join', 'default']);
/** Filters that take arguments, with their maximum argument count. */
export const FILTER_MAX_ARGS = new Map([
  ['join', 1],
  ['default', 2],
]);
/** A variable or attribute name: letter first, so no `_`/`__dunder__` names. */
export const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** How rejected AST node types are named in error messages. */
export const NODE_DESCRIPTIONS: Record<string, string> = {
  CallExpression: 'function calls',
  Set: '{% set %}',
  Macro: '{% macro %}',
  CallStatement: '{% call %}',
  FilterStatement: '{% filter %}',
  Break: '{% break %}',
  Continue: '{% continue %}',
  SliceExpression: 'slices',
  ArrayLiteral: 'list literals',
  TupleLiteral: 'tuples',
  ObjectLiteral: 'dict literals',
  KeywordArgumentExpression: 'keyword arguments',
  SpreadExpression: 'argument unpacking',
  KeywordSpreadExpression: 'argument unpacking',
};
