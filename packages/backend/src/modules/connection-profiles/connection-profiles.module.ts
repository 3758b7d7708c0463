import { Module } from '@nestjs/common';
import { CredentialRefsModule } from '../credential-refs/credential-refs.module.js';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { ConnectionProfilesController } from './connection-profiles.controller.js';
import { ConnectionProfilesRepository } from './connection-profiles.repository.js';
import { ConnectionProfilesService } from './connection-profiles.service.js';

@Module({
  imports: [WorkspacesModule, CredentialRefsModule, DatacoolieModule],
  controllers: [ConnectionProfilesController],
  providers: [ConnectionProfilesRepository, ConnectionProfilesService],
  exports: [ConnectionProfilesService],
})
export class ConnectionProfilesModule {}
