import { Module } from '@nestjs/common';
import { WorkspacesController } from './workspaces.controller.js';
import { WorkspacesLookup } from './workspaces.lookup.js';
import { WorkspacesRepository } from './workspaces.repository.js';
import { WorkspacesService } from './workspaces.service.js';

@Module({
  controllers: [WorkspacesController],
  providers: [WorkspacesRepository, WorkspacesLookup, WorkspacesService],
  exports: [WorkspacesLookup, WorkspacesService],
})
export class WorkspacesModule {}
