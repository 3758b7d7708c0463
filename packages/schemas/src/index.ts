export * from './common/audit.js';
export * from './common/error-response.js';
export * from './common/list-query.js';
export * from './common/text.js';
export * from './errors/error-codes.js';
export * from './resource.js';
export * from './resources.js';
export * from './entities/auth.js';
export * from './entities/user.js';
export * from './entities/system-kind.js';
export * from './entities/system-flavor.js';
export * from './entities/credential-ref.js';
export * from './entities/system.js';
export * from './entities/data-type.js';
export * from './entities/type-instance.js';
export * from './entities/cast-rule.js';
export * from './entities/dataset.js';
export * from './entities/field.js';
export * from './entities/field-classification.js';
export * from './entities/dataset-schema.js';
export * from './entities/field-binding.js';
export * from './entities/crawl-run.js';
export * from './entities/table-structure.js';
export * from './entities/schema-version.js';
export * from './entities/engine.js';
<<<<<<< HEAD
export * from './entities/bulk.js';
=======
export * from './entities/dataset-link.js';
>>>>>>> be6bd27
