import type { Engine } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { EngineRow } from './engine.entity.js';

/** The read shape of one engine kind. */
type EngineOf<K extends Engine['kind']> = Extract<Engine, { kind: K }>;

/**
 * Parent columns plus the kind's attributes, flat, as the wire's discriminated union: one object
 * literal per kind, each checked against its member of the zod-inferred `Engine`.
 */
export function toEngine(e: EngineRow): Engine {
  switch (e.kind) {
    case 'debezium':
    case 'ogg': {
      const d = e.details;
      return withSoftDelete<EngineOf<'debezium' | 'ogg'>>(e, {
        code: e.code,
        name: e.name,
        kind: e.kind,
        role: 'cdc',
        version: e.version,
        envelope_template: d.envelope_template,
        topic_routing: d.topic_routing,
      });
    }
    case 'spark':
    case 'impala':
      return withSoftDelete<EngineOf<'spark' | 'impala'>>(e, {
        code: e.code,
        name: e.name,
        kind: e.kind,
        role: 'compute',
        version: e.version,
        runtime_opts: e.details.runtime_opts,
      });
  }
}
