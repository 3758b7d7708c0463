import { Module } from '@nestjs/common';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { FieldBindingsModule } from '../field-bindings/field-bindings.module.js';
import { FieldsModule } from '../fields/fields.module.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { SystemsModule } from '../systems/systems.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';
import { SchemaVersionPublisher } from './schema-version-publisher.js';
import { ReadShapesRepository } from './read-shapes.repository.js';
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
  ],
  controllers: [SchemaVersionsController, SchemaVersionsBulkController, SystemSnapshotController],
  providers: [
    SchemaVersionsService,
    SchemaVersionPublisher,
    SystemSnapshotService,
    SchemaVersionReader,
    VersionColumns,
    ReadShapesRepository,
  ],
  exports: [SchemaVersionPublisher, SchemaVersionReader],
})
export class SchemaVersionsModule {}
