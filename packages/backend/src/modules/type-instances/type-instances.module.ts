import { Module } from '@nestjs/common';
import { TypeInstancesController } from './type-instances.controller.js';
import { TypeInstancesService } from './type-instances.service.js';
import { TypeInstancesRepository } from './type-instances.repository.js';
import { TypeInstancesLookup } from './type-instances.lookup.js';
import { TypeTreeWriter } from './type-tree.writer.js';
import { TypeSpecRenderer } from './type-spec-renderer.js';
import { TypeSpecsController } from './type-specs.controller.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';

@Module({
  imports: [DataTypesModule, SystemFlavorsModule],
  controllers: [TypeInstancesController, TypeSpecsController],
  providers: [
    TypeInstancesRepository,
    TypeInstancesLookup,
    TypeTreeWriter,
    TypeInstancesService,
    TypeSpecRenderer,
  ],
  exports: [TypeInstancesLookup, TypeTreeWriter],
})
export class TypeInstancesModule {}
