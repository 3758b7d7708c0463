import { Module } from '@nestjs/common';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { TypeTreeWriter } from '../type-instances/type-tree.writer.js';
import { SchemaVersionPublisher } from './schema-version-publisher.js';
import { SchemaVersionReader } from './schema-version.reader.js';
import { SchemaVersionsBulkController } from './schema-versions-bulk.controller.js';
import { SchemaVersionsController } from './schema-versions.controller.js';
import { SchemaVersionsService } from './schema-versions.service.js';
import { SystemSnapshotController } from './system-snapshot.controller.js';
import { SystemSnapshotService } from './system-snapshot.service.js';

@Module({
  imports: [DatasetSchemasModule],
  controllers: [SchemaVersionsController, SchemaVersionsBulkController, SystemSnapshotController],
  providers: [
    SchemaVersionsService,
    SchemaVersionPublisher,
    SystemSnapshotService,
    SchemaVersionReader,
    TypeTreeWriter,
  ],
  exports: [SchemaVersionPublisher],
})
export class SchemaVersionsModule {}
