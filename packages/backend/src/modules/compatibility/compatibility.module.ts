import { Module } from '@nestjs/common';
import { CompatibilityController } from './compatibility.controller.js';
import { CompatibilityLevelsRepository } from './compatibility-levels.repository.js';
import { CompatibilityLevelsService } from './compatibility-levels.service.js';

/** Compatibility levels (ADR 0048): where they are stored, their routes, and what a publish applies. */
@Module({
  controllers: [CompatibilityController],
  providers: [CompatibilityLevelsRepository, CompatibilityLevelsService],
  exports: [CompatibilityLevelsService],
})
export class CompatibilityModule {}
