// The drift of a schema facet against a version (`driftOf`) is a pure function of the two and the
// flavor: every run of a job sees its datasets with the same columns, and the classifier cost the
// intake 50–70 µs a dataset, ten a typical event (ADR 0056). Its answers are kept per process by
// content — the key is the whole input, so a replica never answers from a stale entry — bounded,
// oldest first out, and frozen: the answers are shared between events.
import { type Drift, driftOf, type ObservedField, type RegisteredColumn } from './observed-schema-drift.js';

/** Distinct comparisons kept (a few hundred bytes each). */
export const DRIFT_MEMO_SIZE = 2000;

const memo = new Map<string, Readonly<Drift>>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** `driftOf`, answered from the memo when the same comparison was made before (a frozen answer). */
export function memoizedDriftOf(
  registered: readonly RegisteredColumn[],
  observed: readonly ObservedField[],
  flavor: string | null,
): Readonly<Drift> {
  const key = JSON.stringify([registered, observed, flavor]);
  const known = memo.get(key);
  if (known) return known;
  const drift = deepFreeze(driftOf(registered, observed, flavor));
  if (memo.size >= DRIFT_MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, drift);
  return drift;
}
