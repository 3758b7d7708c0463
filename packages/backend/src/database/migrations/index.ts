import { Foundation1764600000000 } from './1764600000000-Foundation.js';

/** Every migration in order. Listed explicitly: ESM builds cannot rely on TypeORM's glob loading. */
export const MIGRATIONS = [Foundation1764600000000];
