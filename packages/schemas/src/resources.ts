import { castRuleResource } from './entities/cast-rule.js';
import { crawlRunResource } from './entities/crawl-run.js';
import { credentialRefResource } from './entities/credential-ref.js';
import { datasetLinkResource, fieldLinkResource } from './entities/dataset-link.js';
import { engineResource } from './entities/engine.js';
import { techFieldTemplateResource } from './entities/tech-field-template.js';
import { dataTypeResource } from './entities/data-type.js';
import { datasetSchemaResource } from './entities/dataset-schema.js';
import { datasetResource } from './entities/dataset.js';
import { fieldBindingResource } from './entities/field-binding.js';
import { fieldClassificationResource } from './entities/field-classification.js';
import { fieldResource } from './entities/field.js';
import { systemFlavorResource } from './entities/system-flavor.js';
import { systemKindResource } from './entities/system-kind.js';
import { systemResource } from './entities/system.js';
import { typeInstanceResource } from './entities/type-instance.js';
import { apiKeyResource } from './entities/api-key.js';
import { connectionProfileResource } from './entities/connection-profile.js';
import { dataflowResource } from './entities/dataflow.js';
import { workspaceResource } from './entities/workspace.js';
import type { ResourceDef } from './resource.js';

/** The foundation's generic CRUD collections, in documentation order. Users are documented apart. */
export const RESOURCES: readonly ResourceDef[] = [
  systemKindResource,
  systemFlavorResource,
  credentialRefResource,
  systemResource,
];

/** The catalogue's collections (type system, datasets, schemas, PII, crawl runs). */
export const CATALOGUE_RESOURCES: readonly ResourceDef[] = [
  dataTypeResource,
  typeInstanceResource,
  castRuleResource,
  datasetResource,
  fieldResource,
  fieldClassificationResource,
  datasetSchemaResource,
  fieldBindingResource,
  crawlRunResource,
];

/** Lineage: engines, dataset links and field links (AIDE v2 §1.11, §4.8–§4.11). */
export const LINEAGE_RESOURCES: readonly ResourceDef[] = [
  engineResource,
  datasetLinkResource,
  fieldLinkResource,
  techFieldTemplateResource,
];

/** The metadata provider's registry (DESIGN §7): workspaces, connection profiles, dataflows, API keys. */
export const PROVIDER_RESOURCES: readonly ResourceDef[] = [
  workspaceResource,
  connectionProfileResource,
  dataflowResource,
  apiKeyResource,
];
