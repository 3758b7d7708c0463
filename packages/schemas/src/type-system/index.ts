// `@aide/schemas/type-spellings` (ADR 0062): the zod-free tables of type-name spellings per flavor.
export * from './type-spellings.js';
export * from './openlineage-type-spellings.js';
