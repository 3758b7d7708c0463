import { dataflowResource } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DataflowsService } from './dataflows.service.js';

/** The dataflow collection (its watermark routes are served by the watermarks module). */
// Decorated itself so that its own constructor's parameter types are emitted for injection.
@Controller()
export class DataflowsController extends CrudController(dataflowResource, DataflowsService) {
  constructor(service: DataflowsService) {
    super(service);
  }
}
