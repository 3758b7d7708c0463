import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../../common/contract/route.decorator.js';
import { LineageRunsService } from './lineage-runs.service.js';

const routes = contract.lineage;

/** OpenLineage jobs, job versions and runs (ADR 0053), read-only; the intake records them. */
@Controller()
export class LineageRunsController {
  constructor(private readonly runs: LineageRunsService) {}

  @Route(routes.jobs)
  jobs({ query }: RouteInput<typeof routes.jobs>) {
    return this.runs.jobs(query);
  }

  @Route(routes.job)
  job({ params }: RouteInput<typeof routes.job>) {
    return this.runs.job(params.id);
  }

  @Route(routes.jobVersions)
  jobVersions({ params, query }: RouteInput<typeof routes.jobVersions>) {
    return this.runs.versions(params.id, query);
  }

  @Route(routes.jobRuns)
  jobRuns({ params, query }: RouteInput<typeof routes.jobRuns>) {
    return this.runs.jobRuns(params.id, query);
  }

  @Route(routes.run)
  run({ params }: RouteInput<typeof routes.run>) {
    return this.runs.run(params.id);
  }

  @Route(routes.runEvents)
  runEvents({ params }: RouteInput<typeof routes.runEvents>) {
    return this.runs.runEvents(params.id);
  }

  @Route(routes.datasetRuns)
  datasetRuns({ params, query }: RouteInput<typeof routes.datasetRuns>) {
    return this.runs.datasetRuns(params.id, query);
  }

  @Route(routes.graph)
  graph({ query }: RouteInput<typeof routes.graph>) {
    return this.runs.graph(query);
  }
}
