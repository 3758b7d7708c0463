import { Module } from '@nestjs/common';
import { SystemsController } from './systems.controller.js';
import { SystemsService } from './systems.service.js';
import { SystemsRepository } from './systems.repository.js';
import { SystemsLookup } from './systems.lookup.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { CredentialRefsModule } from '../credential-refs/credential-refs.module.js';

@Module({
  imports: [SystemFlavorsModule, CredentialRefsModule],
  controllers: [SystemsController],
  providers: [SystemsRepository, SystemsLookup, SystemsService],
  exports: [SystemsLookup],
})
export class SystemsModule {}
