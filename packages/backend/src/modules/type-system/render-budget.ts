import { TemplateLimitError } from './template-error.js';
import {
  MAX_RENDER_CHARS,
  MAX_RENDER_STEPS,
  RENDER_CHARS_PER_NODE,
  RENDER_STEPS_PER_NODE,
} from './template-limits.js';

/**
 * The work one render call may do, counted while the interpreter runs (see `jinja-runtime.ts`):
 * `steps` are AST nodes evaluated and block statements rendered, `chars` are characters of text
 * produced, printed or compared. A render that would pass either limit stops with a
 * {@link TemplateLimitError} before the operation that would pass it allocates its result, so no
 * template and no params can make one render call cost more than the budget. One budget is shared by
 * every template of a type tree (and by every tree of one response), so trees cannot multiply it; each
 * node rendered adds a small allowance ({@link allowNodes}), so that large legitimate trees fit while
 * the total stays proportional to the size of what is rendered.
 */
export class RenderBudget {
  private stepsUsed = 0;
  private charsUsed = 0;
  private stepLimit: number;
  private charLimit: number;

  constructor(maxSteps = MAX_RENDER_STEPS, maxChars = MAX_RENDER_CHARS) {
    this.stepLimit = maxSteps;
    this.charLimit = maxChars;
  }

  get maxSteps(): number {
    return this.stepLimit;
  }

  get maxChars(): number {
    return this.charLimit;
  }

  /** Raises the limits by the allowance of `count` type-tree nodes. */
  allowNodes(count: number): void {
    this.stepLimit += count * RENDER_STEPS_PER_NODE;
    this.charLimit += count * RENDER_CHARS_PER_NODE;
  }

  get steps(): number {
    return this.stepsUsed;
  }

  get chars(): number {
    return this.charsUsed;
  }

  /** Counts `count` evaluation steps. */
  step(count = 1): void {
    this.stepsUsed += count;
    if (this.stepsUsed > this.stepLimit) {
      throw new TemplateLimitError(`rendering needs more than ${this.stepLimit} evaluation steps`);
    }
  }

  /** Counts `count` characters of text produced, printed or scanned. */
  charge(count: number): void {
    this.reserve(count);
    this.charsUsed += count;
  }

  /** Throws unless `count` more characters fit; called before an operation allocates its result. */
  reserve(count: number): void {
    if (this.charsUsed + count > this.charLimit) {
      throw new TemplateLimitError(`rendering produces more than ${this.charLimit} characters of text`);
    }
  }
}
