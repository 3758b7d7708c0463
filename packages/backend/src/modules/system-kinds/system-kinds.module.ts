import { Module } from '@nestjs/common';
import { SystemKindsController } from './system-kinds.controller.js';
import { SystemKindsService } from './system-kinds.service.js';

@Module({ controllers: [SystemKindsController], providers: [SystemKindsService] })
export class SystemKindsModule {}
