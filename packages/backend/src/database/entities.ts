import { RefreshTokenEntity } from '../modules/auth/refresh-token.entity.js';
import { CastRuleEntity } from '../modules/cast-rules/cast-rule.entity.js';
import { CrawlRunEntity } from '../modules/crawl-runs/crawl-run.entity.js';
import { CredentialRefEntity } from '../modules/credential-refs/credential-ref.entity.js';
import { DataTypeEntity } from '../modules/data-types/data-type.entity.js';
import { DatasetSchemaEntity } from '../modules/dataset-schemas/dataset-schema.entity.js';
import {
  DatasetEntity,
  DatasetHiveEntity,
  DatasetKafkaEntity,
  DatasetRdbmsEntity,
  DatasetSftpEntity,
  DatasetStorageEntity,
} from '../modules/datasets/dataset.entity.js';
import {
  EngineDebeziumEntity,
  EngineEntity,
  EngineImpalaEntity,
  EngineOggEntity,
  EngineSparkEntity,
} from '../modules/engines/engine.entity.js';
import { DatasetLinkEntity } from '../modules/dataset-links/dataset-link.entity.js';
import { FieldLinkEntity } from '../modules/field-links/field-link.entity.js';
import { FieldBindingEntity } from '../modules/field-bindings/field-binding.entity.js';
import { FieldClassificationEntity } from '../modules/field-classifications/field-classification.entity.js';
import { FieldEntity } from '../modules/fields/field.entity.js';
import { SchemaVersionReadShapeEntity } from '../modules/schema-versions/read-shape.entity.js';
import { SystemFlavorEntity } from '../modules/system-flavors/system-flavor.entity.js';
import { SystemKindEntity } from '../modules/system-kinds/system-kind.entity.js';
import { SystemEntity } from '../modules/systems/system.entity.js';
import { TechFieldTemplateEntity } from '../modules/tech-field-templates/tech-field-template.entity.js';
import { LineageJobDatasetEntity } from '../modules/lineage/runs/lineage-job-dataset.entity.js';
import { LineageJobVersionEntity } from '../modules/lineage/runs/lineage-job-version.entity.js';
import { LineageJobEntity } from '../modules/lineage/runs/lineage-job.entity.js';
import { LineageRunDatasetEntity } from '../modules/lineage/runs/lineage-run-dataset.entity.js';
import { LineageRunEventEntity } from '../modules/lineage/runs/lineage-run-event.entity.js';
import { LineageRunEntity } from '../modules/lineage/runs/lineage-run.entity.js';
import { OpenLineageEventEntity } from '../modules/lineage/openlineage-event.entity.js';
import {
  LineageEventPayloadEntity,
  LineageObservedSchemaEntity,
  LineageUnknownDatasetEntity,
  LineageUnknownDatasetEventEntity,
  LineageUnknownDatasetJobEntity,
} from '../modules/lineage/observations/lineage-observation.entities.js';
import { TypeInstanceEntity } from '../modules/type-instances/type-instance.entity.js';
import { UserEntity } from '../modules/users/user.entity.js';
import { ApiKeyEntity } from '../modules/api-keys/api-key.entity.js';
import {
  ConnectionProfileEntity,
  ConnectionProfileSecretEntity,
} from '../modules/connection-profiles/connection-profile.entity.js';
import { SchemaHintOverrideEntity } from '../modules/datacoolie/schema-hint-override.entity.js';
import {
  SchemaHintColumnEntity,
  SchemaHintGroupEntity,
} from '../modules/datacoolie-import/schema-hint-group.entity.js';
import { DataflowEntity } from '../modules/dataflows/dataflow.entity.js';
import { WatermarkEntity, WatermarkHistoryEntity } from '../modules/watermarks/watermark.entity.js';
import { RegistrySettingsEntity } from '../modules/compatibility/registry-settings.entity.js';
import { WorkspaceEntity } from '../modules/workspaces/workspace.entity.js';

/** Every TypeORM entity of the registry. */
export const ENTITIES = [
  RegistrySettingsEntity,
  UserEntity,
  RefreshTokenEntity,
  SystemKindEntity,
  SystemFlavorEntity,
  CredentialRefEntity,
  SystemEntity,
  DataTypeEntity,
  TypeInstanceEntity,
  CastRuleEntity,
  DatasetEntity,
  DatasetRdbmsEntity,
  DatasetKafkaEntity,
  DatasetStorageEntity,
  DatasetSftpEntity,
  DatasetHiveEntity,
  FieldEntity,
  FieldClassificationEntity,
  DatasetSchemaEntity,
  FieldBindingEntity,
  CrawlRunEntity,
  EngineEntity,
  EngineDebeziumEntity,
  EngineOggEntity,
  EngineSparkEntity,
  EngineImpalaEntity,
  DatasetLinkEntity,
  FieldLinkEntity,
  TechFieldTemplateEntity,
  WorkspaceEntity,
  ConnectionProfileEntity,
  ConnectionProfileSecretEntity,
  DataflowEntity,
  WatermarkEntity,
  WatermarkHistoryEntity,
  SchemaHintOverrideEntity,
  SchemaHintGroupEntity,
  SchemaHintColumnEntity,
  ApiKeyEntity,
  OpenLineageEventEntity,
  LineageJobEntity,
  LineageJobVersionEntity,
  LineageRunEntity,
  LineageRunDatasetEntity,
  LineageRunEventEntity,
  LineageJobDatasetEntity,
  SchemaVersionReadShapeEntity,
  LineageEventPayloadEntity,
  LineageUnknownDatasetEntity,
  LineageUnknownDatasetJobEntity,
  LineageUnknownDatasetEventEntity,
  LineageObservedSchemaEntity,
];
