import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SystemSnapshotService } from './system-snapshot.service.js';

const route = contract.systems.snapshot;

/** The registry side of a crawl, a page of datasets at a time. */
@Controller()
export class SystemSnapshotController {
  constructor(private readonly snapshots: SystemSnapshotService) {}

  @Route(route)
  page({ params, query }: RouteInput<typeof route>) {
    return this.snapshots.page(params.id, query);
  }
}
