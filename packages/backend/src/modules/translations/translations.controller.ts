import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { TranslationsService } from './translations.service.js';

const route = contract.translations.translate;

/** `GET /datasets/{id}/versions/{num}/translate`: a version in another flavor, with what it loses. */
@Controller()
export class TranslationsController {
  constructor(private readonly translations: TranslationsService) {}

  @Route(route)
  translate({ params, query }: RouteInput<typeof route>) {
    return this.translations.translate(params.id, params.num, query);
  }
}
