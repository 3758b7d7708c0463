import { Module } from '@nestjs/common';
import { CrawlRunsController } from './crawl-runs.controller.js';
import { CrawlRunsService } from './crawl-runs.service.js';

@Module({ controllers: [CrawlRunsController], providers: [CrawlRunsService] })
export class CrawlRunsModule {}
