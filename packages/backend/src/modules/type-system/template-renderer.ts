import { createEnvironment, createInterpreter } from './jinja-runtime.js';
import { RenderBudget } from './render-budget.js';
import { toTemplateVariables, type TemplateContext } from './render-context.js';
import { TemplateError } from './template-error.js';
import { MAX_OUTPUT_CHARS } from './template-limits.js';
import { compileTemplate, type TemplateProgram } from './template-validator.js';

export { RenderBudget } from './render-budget.js';
export { TemplateError, TemplateLimitError } from './template-error.js';
export { validateTemplate, type TemplateValidationOptions } from './template-validator.js';
export type { RenderedField, TemplateContext } from './render-context.js';

/** Options of {@link renderTemplate}. */
export interface RenderOptions {
  /** Longest accepted output after whitespace normalisation; defaults to {@link MAX_OUTPUT_CHARS}. */
  maxOutputChars?: number;
  /**
   * The work budget charged while rendering; share one to bound several renders together (a type
   * tree, a response). Defaults to a fresh {@link RenderBudget}.
   */
  budget?: RenderBudget;
}

const CONSTANTS: ReadonlyArray<[string, boolean | null]> = [
  ['true', true],
  ['false', false],
  ['none', null],
  ['True', true],
  ['False', false],
  ['None', null],
];
const PROGRAM_CACHE_SIZE = 512;
const programCache = new Map<string, TemplateProgram>();

/**
 * Renders a data type's `render_template` for one type instance, e.g. `numeric(12,2)`, `integer[]`,
 * `struct<a:int,b:string>`. The template is validated against the sandbox policy first (cached per
 * template text); the output has runs of whitespace collapsed to one space and is trimmed.
 *
 * @throws TemplateLimitError when rendering would exceed the work budget (checked while it runs).
 * @throws TemplateError when the template is not allowed, the context is not JSON data, rendering
 *   fails, or the output is longer than allowed.
 */
export function renderTemplate(
  template: string,
  context: TemplateContext = {},
  options: RenderOptions = {},
): string {
  const program = cachedProgram(template);
  const environment = createEnvironment();
  // The environment pre-declares `namespace`; a type template only ever sees data.
  environment.variables.clear();
  for (const [name, value] of Object.entries(toTemplateVariables(context))) {
    environment.set(name, value);
  }
  for (const [name, value] of CONSTANTS) {
    environment.variables.delete(name);
    environment.set(name, value);
  }

  const budget = options.budget ?? new RenderBudget();
  let raw: string;
  try {
    raw = String(createInterpreter(environment, budget).run(program).value);
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError(
      `template could not be rendered: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
  const rendered = raw.replace(/\s+/g, ' ').trim();
  const maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
  if (rendered.length > maxOutputChars) {
    throw new TemplateError(`rendered type is longer than ${maxOutputChars} characters`);
  }
  return rendered;
}

function cachedProgram(template: string): TemplateProgram {
  let program = programCache.get(template);
  if (program === undefined) {
    program = compileTemplate(template);
    if (programCache.size >= PROGRAM_CACHE_SIZE) {
      programCache.delete(programCache.keys().next().value as string);
    }
    programCache.set(template, program);
  }
  return program;
}
