import { Module } from '@nestjs/common';
import { CastRulesController } from './cast-rules.controller.js';
import { CastRulesService } from './cast-rules.service.js';

@Module({ controllers: [CastRulesController], providers: [CastRulesService] })
export class CastRulesModule {}
