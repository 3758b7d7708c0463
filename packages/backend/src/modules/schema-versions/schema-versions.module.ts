import { Module } from '@nestjs/common';
import { CompatibilityModule } from '../compatibility/compatibility.module.js';
import { DatasetLinksModule } from '../dataset-links/dataset-links.module.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { FieldBindingsModule } from '../field-bindings/field-bindings.module.js';
import { FieldsModule } from '../fields/fields.module.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { SystemsModule } from '../systems/systems.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';
import { SchemaVersionPublisher } from './schema-version-publisher.js';
import { EarlierVersions } from './earlier-versions.js';
import { ReadShapesRepository } from './read-shapes.repository.js';
import { SchemaVersionCheckController } from './schema-version-check.controller.js';
import { SchemaVersionCheckService } from './schema-version-check.service.js';
import { SchemaVersionReader } from './schema-version.reader.js';
import { VersionColumns } from './version-columns.js';
import { SchemaVersionsBulkController } from './schema-versions-bulk.controller.js';
import { SchemaVersionsController } from './schema-versions.controller.js';
import { SchemaVersionsService } from './schema-versions.service.js';
import { SystemSnapshotController } from './system-snapshot.controller.js';
import { SystemSnapshotService } from './system-snapshot.service.js';

@Module({
  imports: [
    SystemsModule,
    SystemFlavorsModule,
    DatasetsModule,
    DataTypesModule,
    TypeInstancesModule,
    FieldsModule,
    DatasetSchemasModule,
    FieldBindingsModule,
    CompatibilityModule,
    DatasetLinksModule,
  ],
  controllers: [
    SchemaVersionsController,
    SchemaVersionsBulkController,
    SchemaVersionCheckController,
    SystemSnapshotController,
  ],
  providers: [
    SchemaVersionsService,
    SchemaVersionPublisher,
    SystemSnapshotService,
    SchemaVersionReader,
    VersionColumns,
    ReadShapesRepository,
    EarlierVersions,
    SchemaVersionCheckService,
  ],
  exports: [SchemaVersionPublisher, SchemaVersionReader],
})
export class SchemaVersionsModule {}
