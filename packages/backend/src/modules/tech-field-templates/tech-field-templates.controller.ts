import { contract, techFieldTemplateResource } from '@aide/schemas';
import { Inject } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { TechFieldTemplateApplyService } from './tech-field-template-apply.service.js';
import { TechFieldTemplatesService } from './tech-field-templates.service.js';

const routes = contract.techFieldTemplates;

export class TechFieldTemplatesController extends CrudController(
  techFieldTemplateResource,
  TechFieldTemplatesService,
) {
  // Explicit tokens: an undecorated subclass gets no parameter types of its own.
  constructor(
    @Inject(TechFieldTemplatesService) templates: TechFieldTemplatesService,
    @Inject(TechFieldTemplateApplyService) private readonly applier: TechFieldTemplateApplyService,
  ) {
    super(templates);
  }

  /** Stamps the template's technical columns onto a dataset as `tech` fields (AIDE v2 §9.3). */
  @Route(routes.apply)
  apply({ params, body, user }: RouteInput<typeof routes.apply>) {
    return this.applier.apply(params.id, body, user);
  }
}
