/**
 * A `render_template` that is invalid, not allowed by the sandbox policy, or failed to render.
 * The service layer maps it to 422 `DATA_TYPE_TEMPLATE_INVALID` (or a render error); `message` is safe
 * to show to the client: it never contains rendered data or stack traces.
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
