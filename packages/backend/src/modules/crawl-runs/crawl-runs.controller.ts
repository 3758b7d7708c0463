import { crawlRunResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { CrawlRunsService } from './crawl-runs.service.js';

export class CrawlRunsController extends CrudController(crawlRunResource, CrawlRunsService) {}
