import { Module } from '@nestjs/common';
import { DocsController } from '../docs/docs.controller.js';
import { HealthController } from './health.controller.js';

/** Public platform routes: health probes and API documentation. */
@Module({ controllers: [HealthController, DocsController] })
export class PlatformModule {}
