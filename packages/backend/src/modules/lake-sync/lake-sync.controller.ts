import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { LakeSyncService } from './lake-sync.service.js';

const route = contract.datasetLinks.lakeSync;

/** `POST /datasets/{id}/lake-sync`: mirror a dataset into a new Iceberg table (AIDE v2 §9.4). */
@Controller()
export class LakeSyncController {
  constructor(private readonly lakeSync: LakeSyncService) {}

  @Route(route)
  sync({ params, body, user }: RouteInput<typeof route>) {
    return this.lakeSync.sync(params.id, body, user);
  }
}
