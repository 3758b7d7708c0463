/** Longest accepted `render_template` (the API's `render_template` limit is the same). */
export const MAX_TEMPLATE_CHARS = 2_000;
/** Deepest accepted nesting of `{% if %}`/`{% for %}` blocks, and of brackets inside an expression. */
export const MAX_NESTING_DEPTH = 20;
/** Deepest accepted expression tree; far above any real type template, it only guards the validator's stack. */
export const MAX_EXPRESSION_DEPTH = 60;
/** Longest rendered type text. */
export const MAX_OUTPUT_CHARS = 1_000;
/** Most struct fields (`fields`) a single render may iterate over. */
export const MAX_FIELDS = 1_000;
/**
 * Most characters of string data (params, rendered children, field names and types) in one render
 * context.
 */
export const MAX_CONTEXT_CHARS = 20_000;
/**
 * Evaluation steps (AST nodes evaluated plus block statements rendered) one render budget allows
 * before the per-node allowance: a single template, a type tree, or every tree of one response share
 * one budget. A 1,000-member struct costs about 14,000.
 */
export const MAX_RENDER_STEPS = 100_000;
/**
 * Characters of text one render budget may produce, print, compare or concatenate (the intermediate
 * values of every expression, not only the output) before the per-node allowance. A 1,000-member
 * struct of 20-character members costs about 50,000.
 */
export const MAX_RENDER_CHARS = 1_000_000;
/** Steps added to a budget per type-tree node rendered with it (a struct member costs about 15). */
export const RENDER_STEPS_PER_NODE = 100;
/** Characters added to a budget per type-tree node rendered with it. */
export const RENDER_CHARS_PER_NODE = 2_000;
