import { Module } from '@nestjs/common';
import { TypeInstancesController } from './type-instances.controller.js';
import { TypeInstancesService } from './type-instances.service.js';

@Module({ controllers: [TypeInstancesController], providers: [TypeInstancesService] })
export class TypeInstancesModule {}
