import { Module } from '@nestjs/common';
import { WatermarksRepository } from './watermarks.repository.js';
import { WatermarksService } from './watermarks.service.js';

/** Watermark storage; its routes are declared with the route contract (see docs/provider.md). */
@Module({ providers: [WatermarksService, WatermarksRepository], exports: [WatermarksService] })
export class WatermarksModule {}
