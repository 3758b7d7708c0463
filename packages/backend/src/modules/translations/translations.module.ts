import { Module } from '@nestjs/common';
import { CastRulesModule } from '../cast-rules/cast-rules.module.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { SchemaVersionsModule } from '../schema-versions/schema-versions.module.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { TranslationsController } from './translations.controller.js';
import { TranslationsRepository } from './translations.repository.js';
import { TranslationsService } from './translations.service.js';

@Module({
  imports: [
    CastRulesModule,
    DataTypesModule,
    DatasetSchemasModule,
    SchemaVersionsModule,
    SystemFlavorsModule,
  ],
  controllers: [TranslationsController],
  providers: [TranslationsService, TranslationsRepository],
})
export class TranslationsModule {}
