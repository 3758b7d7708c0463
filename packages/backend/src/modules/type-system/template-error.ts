/**
 * A `render_template` that is invalid, not allowed by the sandbox policy, or failed to render.
 * The service layer maps it to 422 `DATA_TYPE_TEMPLATE_INVALID` (or a render error); `message` is safe
 * to show to the client: it never contains rendered data or stack traces.
 */
export class TemplateError extends Error {
  override readonly name: string = 'TemplateError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A render that would exceed its work budget (evaluation steps or characters produced): the template
 * and params are valid, but this combination costs more than a type text may. The service layer maps
 * it to 422 `TEMPLATE_RENDER_LIMIT`.
 */
export class TemplateLimitError extends TemplateError {
  override readonly name: string = 'TemplateLimitError';
}
