import { Module } from '@nestjs/common';
import { ConnectionProfilesModule } from '../connection-profiles/connection-profiles.module.js';
import { SystemsController } from './systems.controller.js';
import { SystemsService } from './systems.service.js';

@Module({
  imports: [ConnectionProfilesModule],
  controllers: [SystemsController],
  providers: [SystemsService],
})
export class SystemsModule {}
