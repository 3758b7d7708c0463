import { Module } from '@nestjs/common';
import { Housekeeping } from './housekeeping.service.js';

@Module({ providers: [Housekeeping], exports: [Housekeeping] })
export class HousekeepingModule {}
