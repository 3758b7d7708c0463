// `prune`: what the workspace has beyond the document, deleted — dataflows and hint groups before the
// connections they use. Datasets are never deleted (the catalogue and lineage keep them).
import type { EntityManager } from 'typeorm';
import type {
  ImportDataflowRow,
  ImportHintGroupRow,
  ImportProfileRow,
} from './datacoolie-import.repository.js';
import { tableLabel } from './dataset-addressing.js';
import type { ImportDocument } from './import-document.js';
import { hintGroupKey, type PlanStep, planItem } from './import-plan.js';

type Remove = (id: string, m: EntityManager) => Promise<string>;

/** The delete steps of a pruning import; `profileOf` gives a document connection's stored profile. */
export function pruneSteps(
  doc: ImportDocument,
  profileOf: (connectionId: string) => string | undefined,
  current: {
    profiles: readonly ImportProfileRow[];
    dataflows: readonly ImportDataflowRow[];
    groups: readonly ImportHintGroupRow[];
  },
  remove: { dataflow: Remove; hintGroup: Remove; connection: Remove },
): PlanStep[] {
  const steps: PlanStep[] = [];
  const deleted = (id: string) => ({ id, changes: [] });
  const flows = new Set(doc.dataflows.map((d) => d.datacoolie_id));
  for (const row of current.dataflows.filter((r) => !flows.has(r.datacoolie_id))) {
    steps.push({
      item: planItem('dataflow', row.name, row.datacoolie_id, deleted(row.id), 'delete'),
      apply: (m) => remove.dataflow(row.id, m),
    });
  }
  const groups = new Set(
    doc.hintGroups.map((g) => hintGroupKey(profileOf(g.connection_id), g.schema_name, g.table_name)),
  );
  for (const g of current.groups) {
    if (groups.has(hintGroupKey(g.connection_profile_id, g.schema_name, g.table_name))) continue;
    const profile = current.profiles.find((p) => p.id === g.connection_profile_id);
    const label = tableLabel(profile?.name ?? g.connection_profile_id, g.schema_name, g.table_name);
    steps.push({
      item: planItem('schema_hint_group', label, null, deleted(g.id), 'delete'),
      apply: (m) => remove.hintGroup(g.id, m),
    });
  }
  const connections = new Set(doc.connections.map((c) => c.built.connection_id));
  for (const p of current.profiles.filter((r) => !connections.has(r.datacoolie_id))) {
    steps.push({
      item: planItem('connection', p.name, p.datacoolie_id, deleted(p.id), 'delete'),
      apply: (m) => remove.connection(p.id, m),
    });
  }
  return steps;
}
