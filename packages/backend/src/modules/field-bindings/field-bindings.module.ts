import { Module } from '@nestjs/common';
import { FieldBindingsController } from './field-bindings.controller.js';
import { FieldBindingsService } from './field-bindings.service.js';

@Module({ controllers: [FieldBindingsController], providers: [FieldBindingsService] })
export class FieldBindingsModule {}
