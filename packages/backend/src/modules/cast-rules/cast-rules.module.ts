import { Module } from '@nestjs/common';
import { CastRulesController } from './cast-rules.controller.js';
import { CastRulesService } from './cast-rules.service.js';
import { CastRulesRepository } from './cast-rules.repository.js';
import { CastRulesLookup } from './cast-rules.lookup.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';

@Module({
  imports: [DataTypesModule, SystemFlavorsModule, TypeInstancesModule],
  controllers: [CastRulesController],
  providers: [CastRulesRepository, CastRulesLookup, CastRulesService],
  exports: [CastRulesLookup],
})
export class CastRulesModule {}
