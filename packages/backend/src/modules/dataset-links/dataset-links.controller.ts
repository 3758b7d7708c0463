import { contract, datasetLinkResource } from '@aide/schemas';
import { Inject } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DatasetLinkCompatService } from './dataset-link-compat.service.js';
import { DatasetLinksService } from './dataset-links.service.js';
import { RenderSqlService } from './render-sql.service.js';

const routes = contract.datasetLinks;

export class DatasetLinksController extends CrudController(datasetLinkResource, DatasetLinksService) {
  // Explicit tokens: an undecorated subclass gets no parameter types of its own.
  constructor(
    @Inject(DatasetLinksService) links: DatasetLinksService,
    @Inject(DatasetLinkCompatService) private readonly compat: DatasetLinkCompatService,
    @Inject(RenderSqlService) private readonly sql: RenderSqlService,
  ) {
    super(links);
  }

  /** The ETL pre-flight of every active link, filtered (a dashboard polls `?status=error`). */
  @Route(routes.compatSummaries)
  summaries({ query }: RouteInput<typeof routes.compatSummaries>) {
    return this.compat.summaries(query);
  }

  /** The ETL pre-flight of one link: pin drift, per-field issues and severities, status. */
  @Route(routes.compat)
  report({ params }: RouteInput<typeof routes.compat>) {
    return this.compat.report(params.id);
  }

  /** The hop's INSERT … SELECT for its compute engine (Spark, Impala); nothing is stored. */
  @Route(routes.renderSql)
  renderSql({ params }: RouteInput<typeof routes.renderSql>) {
    return this.sql.render(params.id);
  }
}
