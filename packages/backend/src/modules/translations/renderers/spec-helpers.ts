// Builders of TranslatedTable inputs for the renderers' tests.
import type { TranslatedColumn, TranslatedTable, TranslatedType } from '../translated-table.js';

/** A type of the target flavor; `children` as [slot, type, nullable]. */
export function t(
  code: string,
  params: Record<string, unknown> = {},
  children: [string, TranslatedType, boolean?][] = [],
  rendered: string | null = null,
): TranslatedType {
  return {
    code,
    params,
    rendered,
    children: children.map(([slot, type, nullable]) => ({ slot, type, nullable: nullable ?? true })),
  };
}

export function col(
  name: string,
  type: TranslatedType | null,
  options: Partial<Omit<TranslatedColumn, 'name' | 'type'>> = {},
): TranslatedColumn {
  return {
    name,
    type,
    nullable: true,
    default: null,
    comment: null,
    source_type: 'text',
    native_type: null,
    fidelity: type === null ? null : 'exact',
    loss: [],
    ...options,
  };
}

export function table(
  columns: TranslatedColumn[],
  options: Partial<Omit<TranslatedTable, 'columns'>> = {},
): TranslatedTable {
  return {
    name: 'orders',
    namespace: 'shop',
    comment: null,
    target_flavor: 'x',
    columns,
    primary_key: null,
    unique_constraints: [],
    foreign_keys: [],
    partition_columns: [],
    ...options,
  };
}
