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
 * context. With the template size this bounds the raw output: a template can only repeat context data,
 * never multiply it.
 */
export const MAX_CONTEXT_CHARS = 20_000;
/**
 * Wall-time budget of one render. The whitelist keeps rendering O(template size × fields), so this is
 * a tripwire that discards a result which took too long rather than a pre-emptive timeout.
 */
export const RENDER_TIME_BUDGET_MS = 250;
