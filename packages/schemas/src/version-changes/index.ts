// `@aide/schemas/version-changes`: the one classifier of schema changes (ADR 0037) with its type text
// and widening rules, as plain functions and constants that load no zod (ADR 0041). A command line
// that classifies or prints types (the crawler) imports this instead of the package root, whose
// import builds every wire schema. The same modules are re-exported by the root: one copy of each.
export * from './categories.js';
export * from './classify.js';
export * from './comparable.js';
export * from './type-text.js';
export * from './type-widening.js';
export type { SchemaChange, VersionChange } from '../entities/version-change.js';
export * from './compatibility-rules.js';
