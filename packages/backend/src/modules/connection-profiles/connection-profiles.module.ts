import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { ConnectionProfilesController } from './connection-profiles.controller.js';
import { ConnectionProfilesService } from './connection-profiles.service.js';

@Module({
  imports: [DatacoolieModule],
  controllers: [ConnectionProfilesController],
  providers: [ConnectionProfilesService],
})
export class ConnectionProfilesModule {}
