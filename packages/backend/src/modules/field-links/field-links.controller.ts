import { contract, fieldLinkResource } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { FieldLinksService } from './field-links.service.js';

const routes = contract.datasetLinks;

/** `/field-links`: list (filters), get, create (body names the link), note update, delete. */
export class FieldLinksController extends CrudController(fieldLinkResource, FieldLinksService) {}

/** The original's routes under the dataset link (AIDE v2 §2.4.13). */
@Controller()
export class LinkFieldLinksController {
  constructor(private readonly fieldLinks: FieldLinksService) {}

  @Route(routes.fieldLinks)
  list({ params }: RouteInput<typeof routes.fieldLinks>) {
    return this.fieldLinks.listOfLink(params.id);
  }

  @Route(routes.createFieldLink)
  async create({ params, body, user }: RouteInput<typeof routes.createFieldLink>) {
    const [row] = await this.fieldLinks.createInLink(params.id, [body], user);
    return row;
  }

  /** All or nothing; duplicates inside the array are refused (409) before anything is written. */
  @Route(routes.bulkFieldLinks)
  bulk({ params, body, user }: RouteInput<typeof routes.bulkFieldLinks>) {
    return this.fieldLinks.createInLink(params.id, body, user);
  }
}
