import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SystemSnapshotService } from './system-snapshot.service.js';

const route = contract.systems.snapshot;
const fingerprints = contract.systems.fingerprints;
const versions = contract.systems.snapshotVersions;

/** The registry side of a crawl, a page of datasets at a time. */
@Controller()
export class SystemSnapshotController {
  constructor(private readonly snapshots: SystemSnapshotService) {}

  @Route(route)
  page({ params, query }: RouteInput<typeof route>) {
    return this.snapshots.page(params.id, query);
  }

  /** Per dataset its current version's fingerprint (ADR 0032): what a re-crawl reads first. */
  @Route(fingerprints)
  fingerprints({ params, query }: RouteInput<typeof fingerprints>) {
    return this.snapshots.fingerprints(params.id, query);
  }

  /** The snapshot items of the datasets a crawler found changed. */
  @Route(versions)
  versions({ params, body }: RouteInput<typeof versions>) {
    return this.snapshots.versions(params.id, body);
  }
}
