import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { WatermarksModule } from '../watermarks/watermarks.module.js';
import { DatacoolieApiService } from './datacoolie-api.service.js';
import { DatacoolieIdsRepository } from './datacoolie-ids.repository.js';
import { DatacoolieController } from './datacoolie.controller.js';

/**
 * DataCoolie's own REST contract and the workspace snapshot route (ADR 0026): it reads every provider
 * module (snapshot, watermarks) and none of them depends on it, so it sits apart from `datacoolie`,
 * whose write-time checks the connection-profile and dataflow modules use.
 */
@Module({
  imports: [DatacoolieModule, WatermarksModule],
  controllers: [DatacoolieController],
  providers: [DatacoolieApiService, DatacoolieIdsRepository],
})
export class DatacoolieApiModule {}
