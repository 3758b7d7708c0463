/** One problem with a params schema or with a type instance's params; `path` is a list of keys. */
export interface ParamsIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * A data type's `params_schema` that is not an accepted JSON Schema (or original rule map). The service
 * layer maps it to 422 `DATA_TYPE_PARAMS_SCHEMA_INVALID` with `issues` in `details`.
 */
export class ParamsSchemaError extends Error {
  override readonly name = 'ParamsSchemaError';

  constructor(
    readonly issues: ParamsIssue[],
    message = `params_schema is invalid: ${issues.map(formatIssue).join('; ')}`,
  ) {
    super(message);
  }
}

function formatIssue(issue: ParamsIssue): string {
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`;
}
