import { Module } from '@nestjs/common';
import { WatermarksController } from './watermarks.controller.js';
import { WatermarksRepository } from './watermarks.repository.js';
import { WatermarksService } from './watermarks.service.js';

/**
 * Watermark storage and the registry's watermark routes; DataCoolie's own routes (module
 * `datacoolie-api`) use the exported service.
 */
@Module({
  controllers: [WatermarksController],
  providers: [WatermarksRepository, WatermarksService],
  exports: [WatermarksService],
})
export class WatermarksModule {}
