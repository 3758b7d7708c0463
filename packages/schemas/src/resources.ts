import { credentialRefResource } from './entities/credential-ref.js';
import { systemFlavorResource } from './entities/system-flavor.js';
import { systemKindResource } from './entities/system-kind.js';
import { systemResource } from './entities/system.js';
import type { ResourceDef } from './resource.js';

/** Every generic CRUD collection of the API, in documentation order. Users are documented apart. */
export const RESOURCES: readonly ResourceDef[] = [
  systemKindResource,
  systemFlavorResource,
  credentialRefResource,
  systemResource,
];
