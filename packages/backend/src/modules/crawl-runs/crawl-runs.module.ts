import { Module } from '@nestjs/common';
import { CrawlRunsController } from './crawl-runs.controller.js';
import { CrawlRunsService } from './crawl-runs.service.js';
import { CrawlRunsRepository } from './crawl-runs.repository.js';
import { SystemsModule } from '../systems/systems.module.js';

@Module({
  imports: [SystemsModule],
  controllers: [CrawlRunsController],
  providers: [CrawlRunsRepository, CrawlRunsService],
})
export class CrawlRunsModule {}
