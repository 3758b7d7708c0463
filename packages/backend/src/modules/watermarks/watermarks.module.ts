import { Module } from '@nestjs/common';
import { WatermarksService } from './watermarks.service.js';

/** Watermark storage; its routes are declared with the route contract (see docs/provider.md). */
@Module({ providers: [WatermarksService], exports: [WatermarksService] })
export class WatermarksModule {}
