import { Module } from '@nestjs/common';
import { TypeInstancesController } from './type-instances.controller.js';
import { TypeInstancesService } from './type-instances.service.js';
import { TypeSpecRenderer } from './type-spec-renderer.js';
import { TypeSpecsController } from './type-specs.controller.js';

@Module({
  controllers: [TypeInstancesController, TypeSpecsController],
  providers: [TypeInstancesService, TypeSpecRenderer],
})
export class TypeInstancesModule {}
