import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { DatacoolieImportService } from './datacoolie-import.service.js';

const routes = contract.datacoolie;

/** `POST /api/v1/workspaces/{workspace_id}/datacoolie/import`: a DataCoolie document as one plan. */
@Controller()
export class DatacoolieImportController {
  constructor(private readonly imports: DatacoolieImportService) {}

  @Route(routes.import)
  import({ params, body, user }: RouteInput<typeof routes.import>) {
    return this.imports.import(params.workspace_id, body, user);
  }
}
