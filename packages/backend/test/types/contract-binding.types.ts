// Compile-time checks of the route contract's bindings: `pnpm typecheck` (tsc over src and test)
// fails if any line marked @ts-expect-error stops being an error, i.e. if the binding lost its checks.
import { contract, systemKindResource, systemResource } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../src/common/contract/route.decorator.js';
import { CrudController } from '../../src/common/crud/crud-controller.js';
import { SystemKindsService } from '../../src/modules/system-kinds/system-kinds.service.js';
import { SystemsService } from '../../src/modules/systems/systems.service.js';

const versions = contract.schemaVersions;

@Controller()
export class Bindings {
  // A handler's input is typed by its route: `params.num` is a number, the body a publish input.
  @Route(versions.get)
  typedParams({ params }: RouteInput<typeof versions.get>) {
    const num: number = params.num;
    void num;
    // @ts-expect-error the route has no `version` parameter
    void params.version;
    return Promise.resolve({} as never) as never;
  }

  // @ts-expect-error a handler bound to the version route cannot answer a history (an array)
  @Route(versions.get)
  wrongResult(_input: RouteInput<typeof versions.get>) {
    return Promise.resolve([{ version_num: 1 }]);
  }

  // @ts-expect-error the input must be the route's own: this is the history route's
  @Route(versions.diff)
  wrongInput(_input: RouteInput<typeof versions.history>) {
    return Promise.resolve({} as never);
  }

  // A route without a body gives `undefined`; reading a key of it does not compile.
  @Route(versions.history)
  noBody({ body }: RouteInput<typeof versions.history>) {
    // @ts-expect-error the history route has no body
    void body.columns;
    return Promise.resolve([]);
  }
}

// A resource's controller needs a service of that resource's types.
export class SystemsOk extends CrudController(systemResource, SystemsService) {}
// @ts-expect-error SystemKindsService serves system kinds, not systems
export class SystemsWrong extends CrudController(systemResource, SystemKindsService) {}
export class KindsOk extends CrudController(systemKindResource, SystemKindsService) {}
