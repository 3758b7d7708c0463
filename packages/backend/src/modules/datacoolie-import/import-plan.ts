// The plan's items and the steps that write them: each item planned with what the registry holds, then
// written (in plan order) under its own savepoint, so that every refusal of a registry rule is reported.
import type {
  DataCoolieImportChange,
  DataCoolieImportItem,
  DataCoolieImportKind,
  DataCoolieImportProblem,
} from '@aide/schemas';
import { casefold } from '@aide/schemas/datacoolie';
import type { EntityManager } from 'typeorm';
import { toAppError } from '../../common/errors/error-response.js';

/** Thrown by a step whose input another step failed to write: that step's problem says why. */
export class DependencyFailed extends Error {}

/** A value another step writes (a created row's id), or DependencyFailed when it was not written. */
export function written<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw new DependencyFailed();
  return value;
}

/** DataCoolie's hint key on a profile: the connection exactly, schema and table case-insensitively. */
export function hintGroupKey(profileId: string | undefined, schema: string | null, table: string): string {
  return JSON.stringify([profileId, casefold(schema ?? ''), casefold(table)]);
}

export interface PlanStep {
  item: DataCoolieImportItem;
  /** Writes the item and answers its registry id; absent for an unchanged item. */
  apply?: (m: EntityManager) => Promise<string>;
}

export function planItem(
  kind: DataCoolieImportKind,
  name: string,
  datacoolieId: string | null,
  found: { id: string; changes: DataCoolieImportChange[] } | null,
  action?: 'delete',
): DataCoolieImportItem {
  if (found === null)
    return { kind, name, datacoolie_id: datacoolieId, id: null, action: 'create', changes: [] };
  const changed = found.changes.length > 0 ? 'update' : 'unchanged';
  return {
    kind,
    name,
    datacoolie_id: datacoolieId,
    id: found.id,
    action: action ?? changed,
    changes: found.changes,
  };
}

/**
 * Writes the steps in order, each under a savepoint: a registry rule's refusal rolls back that item
 * only and becomes a problem with its code; a step that needs an item not written is skipped. Errors
 * no rule explains (bugs, lost connections) are thrown.
 */
export async function applySteps(
  steps: readonly PlanStep[],
  problems: DataCoolieImportProblem[],
  m: EntityManager,
): Promise<void> {
  for (const step of steps) {
    if (!step.apply) continue;
    await m.query('SAVEPOINT datacoolie_import_item');
    try {
      step.item.id = await step.apply(m);
    } catch (error) {
      await m.query('ROLLBACK TO SAVEPOINT datacoolie_import_item');
      if (!(error instanceof DependencyFailed)) {
        const refusal = toAppError(error);
        if (refusal.code === 'INTERNAL_SERVER_ERROR') throw error;
        const { kind, name } = step.item;
        problems.push({ kind, name, reason: refusal.message, code: refusal.code });
      }
    }
    await m.query('RELEASE SAVEPOINT datacoolie_import_item');
  }
}
