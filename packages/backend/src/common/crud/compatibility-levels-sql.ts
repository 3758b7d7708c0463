import { COMPATIBILITY_LEVELS } from '@aide/schemas';

/** The levels as an SQL list, for the checks of the columns that hold one (ADR 0048). */
export const COMPATIBILITY_LEVELS_SQL = `(${COMPATIBILITY_LEVELS.map((l) => `'${l}'`).join(', ')})`;
