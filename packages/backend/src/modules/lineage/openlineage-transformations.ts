// The transformations of a column-lineage edge as the `columnLineage` facet gives them (ADR 0052):
// facet 1-2-0 `inputFields[].transformations[]` (`type`, `subtype`, `description`, `masking`), or the
// older field-level `transformationType` / `transformationDescription`. Read leniently: an entry of
// another shape is left out, never refused, so that an event of a newer facet still lands.
import {
  FIELD_TRANSFORMATION_TYPES,
  type FieldTransformation,
  MAX_FIELD_TRANSFORMATIONS,
} from '@aide/schemas';

const SUBTYPE = /^[A-Za-z][A-Za-z0-9_]*$/;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A subtype as sent when it has the shape, else the same words joined by `_` (null when nothing is left). */
function subtypeOf(v: unknown): string | null {
  const s = text(v);
  if (s === null) return null;
  if (SUBTYPE.test(s) && s.length <= 100) return s;
  const cleaned = s
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 100);
  return cleaned === '' ? null : cleaned;
}

function transformationOf(raw: Record<string, unknown>): FieldTransformation | null {
  const type = text(raw['type'])?.toUpperCase();
  if (!type || !(FIELD_TRANSFORMATION_TYPES as readonly string[]).includes(type)) return null;
  return {
    type: type as FieldTransformation['type'],
    subtype: subtypeOf(raw['subtype']),
    description: text(raw['description'])?.slice(0, 2000) ?? null,
    masking: typeof raw['masking'] === 'boolean' ? raw['masking'] : null,
  };
}

/**
 * The transformations of one input field of an output field, canonical (every key, nulls): its own
 * (facet 1-2-0) when it lists any, else the output field's older `transformationType` (`IDENTITY` →
 * DIRECT/IDENTITY; any other text → DIRECT with that subtype; `MASKED` also sets `masking`). `given`:
 * whether the event said anything about them (an edge re-sent without them keeps its stored ones).
 */
export function transformationsOf(
  input: { transformations?: Record<string, unknown>[] | undefined },
  field: { transformationType?: string | null; transformationDescription?: string | null },
): { given: boolean; list: FieldTransformation[] } {
  if (input.transformations && input.transformations.length > 0) {
    const list = input.transformations
      .map(transformationOf)
      .filter((t): t is FieldTransformation => t !== null)
      .slice(0, MAX_FIELD_TRANSFORMATIONS);
    return { given: true, list };
  }
  const legacy = text(field.transformationType);
  if (legacy === null) return { given: false, list: [] };
  const subtype = subtypeOf(legacy);
  return {
    given: true,
    list: [
      {
        type: 'DIRECT',
        subtype: subtype === null ? null : subtype.toUpperCase(),
        description: text(field.transformationDescription)?.slice(0, 2000) ?? null,
        masking: legacy.toUpperCase() === 'MASKED' ? true : null,
      },
    ],
  };
}

/** The transformations of a dataset-level input (facet 1-2-0 `dataset` array entry). */
export function datasetInputTransformations(raw: Record<string, unknown>): FieldTransformation[] {
  const list = Array.isArray(raw['transformations']) ? (raw['transformations'] as unknown[]) : [];
  return list
    .filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null && !Array.isArray(t))
    .map(transformationOf)
    .filter((t): t is FieldTransformation => t !== null)
    .slice(0, MAX_FIELD_TRANSFORMATIONS);
}
