import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { ConnectionProfilesController } from './connection-profiles.controller.js';
import { ConnectionProfilesRepository } from './connection-profiles.repository.js';
import { ConnectionProfilesService } from './connection-profiles.service.js';

/** Exports its repository for the delete guards of systems and credential references. */
@Module({
  imports: [DatacoolieModule, WorkspacesModule],
  controllers: [ConnectionProfilesController],
  providers: [ConnectionProfilesService, ConnectionProfilesRepository],
  exports: [ConnectionProfilesRepository],
})
export class ConnectionProfilesModule {}
