import { authRoutes, userRoutes } from './auth.js';
import {
  bulkPublishRoutes,
  castRuleRoutes,
  crawlRunRoutes,
  credentialRefRoutes,
  datasetRoutes,
  datasetSchemaRoutes,
  dataTypeRoutes,
  fieldBindingRoutes,
  fieldClassificationRoutes,
  fieldRoutes,
  schemaVersionRoutes,
  searchRoutes,
  systemFlavorRoutes,
  systemKindRoutes,
  systemRoutes,
  typeInstanceRoutes,
} from './catalogue.js';
import {
  datasetLinkRoutes,
  engineRoutes,
  fieldLinkRoutes,
  lineageObservationRoutes,
  lineageRoutes,
  techFieldTemplateRoutes,
} from './lineage.js';
import {
  apiKeyRoutes,
  connectionProfileRoutes,
  datacoolieRoutes,
  dataflowRoutes,
  workspaceRoutes,
} from './provider.js';
import { compatibilityRoutes, translationRoutes } from './compatibility.js';
import type { RouteDef } from './route.js';

export * from './route.js';
export * from './crud.js';
export { PUBLISH_ERRORS } from './catalogue.js';

/**
 * Every operation of the API, by area, in documentation order. Adding a route is adding it here (and
 * binding a handler to it with `@Route` in the backend): the OpenAPI document, the server's route table
 * and the SDK's operations are checked against this object.
 */
export const contract = {
  auth: authRoutes,
  users: userRoutes,
  systemKinds: systemKindRoutes,
  systemFlavors: systemFlavorRoutes,
  credentialRefs: credentialRefRoutes,
  systems: systemRoutes,
  dataTypes: dataTypeRoutes,
  typeInstances: typeInstanceRoutes,
  castRules: castRuleRoutes,
  datasets: datasetRoutes,
  fields: fieldRoutes,
  fieldClassifications: fieldClassificationRoutes,
  datasetSchemas: datasetSchemaRoutes,
  fieldBindings: fieldBindingRoutes,
  crawlRuns: crawlRunRoutes,
  schemaVersions: { ...schemaVersionRoutes, ...bulkPublishRoutes },
  compatibility: compatibilityRoutes,
  translations: translationRoutes,
  engines: engineRoutes,
  datasetLinks: datasetLinkRoutes,
  fieldLinks: fieldLinkRoutes,
  techFieldTemplates: techFieldTemplateRoutes,
  lineage: lineageRoutes,
  lineageObservations: lineageObservationRoutes,
  search: searchRoutes,
  workspaces: workspaceRoutes,
  connectionProfiles: connectionProfileRoutes,
  dataflows: dataflowRoutes,
  apiKeys: apiKeyRoutes,
  datacoolie: datacoolieRoutes,
};

export type Contract = typeof contract;

/** The contract as a flat list (routes a resource lacks are left out). */
export function contractRoutes(
  areas: Record<string, Record<string, RouteDef | undefined>> = contract,
): RouteDef[] {
  const routes: RouteDef[] = [];
  for (const area of Object.values(areas))
    for (const route of Object.values(area)) if (route !== undefined) routes.push(route);
  return routes;
}
