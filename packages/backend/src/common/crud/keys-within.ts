/**
 * `true` when every key of A is a key of B, otherwise an object naming the keys B lacks. Assigning
 * `true` to it is a compile-time check that a write body's keys are entity columns: the generic write
 * path (`splitByTable`, `CrudRepository.insert`) takes a body's keys as columns, and TypeORM drops a
 * key that is not one, silently.
 */
export type KeysWithin<A, B> = [Exclude<keyof A, keyof B>] extends [never]
  ? true
  : { keys_missing_from_the_entity: Exclude<keyof A, keyof B> };
