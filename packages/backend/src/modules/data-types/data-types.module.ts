import { Module } from '@nestjs/common';
import { DataTypesController } from './data-types.controller.js';
import { DataTypesService } from './data-types.service.js';

@Module({ controllers: [DataTypesController], providers: [DataTypesService] })
export class DataTypesModule {}
