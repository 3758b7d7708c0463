import { type RenderedType, type TypeInstanceTree, typeInstanceResource } from '@aide/schemas';
import { Get, Param, Query } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { noQuery, UuidPipe } from '../../common/validation/zod.pipe.js';
import { TypeInstancesService } from './type-instances.service.js';

export class TypeInstancesController extends CrudController(typeInstanceResource, TypeInstancesService) {
  constructor(private readonly typeInstances: TypeInstancesService) {
    super(typeInstances);
  }

  @Get(':id/tree')
  tree(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object): Promise<TypeInstanceTree> {
    return this.typeInstances.tree(id);
  }

  /** The rendered type text of the whole tree under this node, e.g. `numeric(12,2)` or `integer[]`. */
  @Get(':id/render')
  render(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object): Promise<RenderedType> {
    return this.typeInstances.render(id);
  }
}
