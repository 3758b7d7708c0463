import { AppError } from '../../common/errors/app-error.js';

/**
 * Most levels of a dataset's field tree (a root field alone is 1), as deep as a type tree may be: a
 * nested field mirrors a struct member. Enforced on every write, so the tree read is never too deep to
 * build or to serialise.
 */
export const MAX_FIELD_DEPTH = 32;

/** 422 FIELD_TREE_TOO_DEEP: a field at `level`, past the limit. */
export function fieldTooDeep(level: number): AppError {
  return new AppError(
    'FIELD_TREE_TOO_DEEP',
    `Fields nest at most ${MAX_FIELD_DEPTH} levels; this one would be at level ${level}.`,
  );
}
