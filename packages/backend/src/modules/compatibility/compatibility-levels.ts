import type { DatasetCompatibility } from '@aide/schemas';
import type { StoredLevels } from './compatibility-levels.repository.js';

/** The level that applies to a dataset: its own, else its system's default, else the registry's. */
export function effectiveLevel(levels: StoredLevels): DatasetCompatibility {
  const source =
    levels.dataset_level !== null ? 'dataset' : levels.system_level !== null ? 'system' : 'registry';
  return {
    dataset_id: levels.dataset_id,
    level: levels.dataset_level,
    system_level: levels.system_level,
    registry_level: levels.registry_level,
    effective_level: levels.dataset_level ?? levels.system_level ?? levels.registry_level,
    source,
  };
}
