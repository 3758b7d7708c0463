import { Module } from '@nestjs/common';
import { SystemFlavorsController } from './system-flavors.controller.js';
import { SystemFlavorsService } from './system-flavors.service.js';

@Module({ controllers: [SystemFlavorsController], providers: [SystemFlavorsService] })
export class SystemFlavorsModule {}
