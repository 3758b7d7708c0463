// What each branch of the search statement selects (search-statement.ts): one SELECT list for every
// branch, so that the UNION of the branches lines its columns up, and what the system and dataset
// branches differ in.
import { datasetDocument, type SearchDocument, systemDocument } from './search-documents.js';
import type { SearchRow } from './search.repository.js';

/** Columns a branch leaves empty, typed so that the UNION's column types agree. */
const NULL_COLUMNS = {
  label: 'NULL::text',
  field_path: 'NULL::text',
  dataset_id: 'NULL::uuid',
  dataset_name: 'NULL::text',
  pii_tags: 'NULL::text[]',
};

export type Columns = Omit<Record<keyof SearchRow, string>, 'total' | 'facets'>;

/**
 * A branch's SELECT list. Every branch names every column (the first branch alone would name them for
 * the UNION), in the same order: UNION pairs columns by position.
 */
export function selectColumns(
  c: Pick<Columns, 'kind' | 'id' | 'name' | 'comment' | 'match_rank' | 'score'> & Partial<Columns>,
): string {
  const all: Columns = { ...NULL_COLUMNS, system_id: 's.id', system_code: 's.code::text', ...c };
  return `SELECT ${(Object.keys(all) as (keyof Columns)[])
    .sort()
    .map((column) => `${all[column]} AS ${column}`)
    .join(', ')}`;
}

/** What the system and the dataset branches differ in. */
export interface TableBranch {
  name: string;
  table: string;
  alias: string;
  document: SearchDocument;
  /** The FROM clause: the table, joined to its live system. */
  from: string;
  /** The column holding the row's system id. */
  systemColumn: string;
  columns: Pick<Columns, 'kind' | 'id' | 'name' | 'comment'> & Partial<Columns>;
}

export const SYSTEM_BRANCH: TableBranch = {
  name: 'system_hits',
  table: 'systems',
  alias: 's',
  document: systemDocument('s'),
  from: 'systems s',
  systemColumn: 's.id',
  columns: { kind: `'system'::text`, id: 's.id', name: 's.code::text', label: 's.name', comment: 's.note' },
};

export const DATASET_BRANCH: TableBranch = {
  name: 'dataset_hits',
  table: 'datasets',
  alias: 'd',
  document: datasetDocument('d'),
  from: 'datasets d JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL',
  systemColumn: 'd.system_id',
  columns: {
    kind: `'dataset'::text`,
    id: 'd.id',
    name: 'd.object_name',
    comment: 'd.note',
    dataset_id: 'd.id',
    dataset_name: 'd.object_name',
  },
};

/** The field branches' own columns. */
export const FIELD_COLUMNS = {
  kind: `'field'::text`,
  id: 'f.id',
  name: 'f.name',
  comment: 'f.note',
  field_path: 'f.path',
  dataset_id: 'd.id',
  dataset_name: 'd.object_name',
  pii_tags: 'f.pii_tags',
};
