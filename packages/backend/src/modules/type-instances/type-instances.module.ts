import { Module } from '@nestjs/common';
import { TypeInstancesController } from './type-instances.controller.js';
import { TypeInstancesService } from './type-instances.service.js';
import { TypeInstancesRepository } from './type-instances.repository.js';
import { TypeInstancesLookup } from './type-instances.lookup.js';
import { TypeTreeWriter } from './type-tree.writer.js';
import { DataTypesModule } from '../data-types/data-types.module.js';

@Module({
  imports: [DataTypesModule],
  controllers: [TypeInstancesController],
  providers: [TypeInstancesRepository, TypeInstancesLookup, TypeTreeWriter, TypeInstancesService],
  exports: [TypeInstancesLookup, TypeTreeWriter],
})
export class TypeInstancesModule {}
