// `@aide/schemas/datacoolie`: DataCoolie's metadata models (reference §1) — plain data built by
// validating factories — with their enums, coercions and errors. The registry validates what it
// stores with them, and `@aide/provider` builds on them, so both judge a dataflow the same way.
export * from './coerce.js';
export * from './constants.js';
export * from './errors.js';
export * from './models/index.js';
