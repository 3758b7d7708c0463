// The searchable text of systems, datasets and fields, as SQL over a table alias. The planner uses an
// index only for the expression it was built on, so each is, character for character, the indexed one:
// - `tsvector`: the expression of the GIN index ix_<table>_search (1765400000000-Search; names weighted
//   A, the note weighted C), for matching; for fields, of the partial ix_fields_search_noted alone (the
//   index of every field was dropped by 1766270000000-DropFieldsSearchIndex: see `fieldNoted`);
// - `vector`: the same value, stored by a trigger (1765550000000-SearchColumns), for ranking: reading
//   it costs nothing, where the expression is computed again for every candidate;
// - `trigram`: the lower-cased name of the pg_trgm GIN index ix_<table>_name_trgm (1765400000000-Search);
// - `names`: the lower-cased names in byte order, with btree indexes (exact and prefix matches read
//   in index order: ix_fields_name_lower, ix_datasets_name_lower, ix_datasets_last_name_lower).
// test/e2e/search.e2e-spec.ts checks with EXPLAIN that the statement uses them.

const words = (text: string) => `translate(${text}, '._-/:', '     ')`;

function tsvector(names: string, comment: string): string {
  return (
    `(setweight(to_tsvector('simple'::regconfig, ${words(names)}), 'A') || ` +
    `setweight(to_tsvector('simple'::regconfig, ${words(`coalesce(${comment}, '')`)}), 'C'))`
  );
}

export interface SearchDocument {
  /** Names weighted A, the comment weighted C: the indexed expression, for matching. */
  readonly tsvector: string;
  /** The same, stored: for ranking. */
  readonly vector: string;
  /** The lower-cased name compared by trigram word similarity. */
  readonly trigram: string;
  /** The lower-cased names an exact or prefix match is looked for in. */
  readonly names: readonly string[];
}

export const systemDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.code || ' ' || ${a}.name`, `${a}.note`),
  vector: `${a}.search_vector`,
  trigram: `lower(${a}.code || ' ' || ${a}.name)`,
  // Systems are few: their names are compared without an index of their own.
  names: [`(lower(${a}.code) COLLATE "C")`, `(lower(${a}.name) COLLATE "C")`],
});

export const datasetDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.object_name || ' ' || coalesce(${a}.layer, '')`, `${a}.note`),
  vector: `${a}.search_vector`,
  trigram: `lower(${a}.object_name)`,
  // A qualified name (`sales.orders`) also matches by its last part.
  names: [
    `(lower(${a}.object_name) COLLATE "C")`,
    `(lower(regexp_replace(${a}.object_name, '^.*[.]', '')) COLLATE "C")`,
  ],
});

export const fieldDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.name || ' ' || coalesce(${a}.path, '')`, `${a}.note`),
  vector: `${a}.search_vector`,
  trigram: `lower(${a}.name)`,
  names: [`(lower(${a}.name) COLLATE "C")`],
});

/**
 * The fields whose words are not those of their name alone: a note, or a path of their own (a
 * publish stores the name as a root field's path). They are in the partial GIN index
 * ix_fields_search_noted (1766260000000-FieldWordsByName); the others are found by name through the
 * vocabulary (`fieldNameWords`). Character for character the index's predicate, so that the planner
 * proves it.
 */
export const fieldNoted = (a: string): string => `(${a}.note IS NOT NULL OR ${a}.path <> ${a}.name)`;

/** Not `fieldNoted` (the name is never null): the document's words are those of `lower(name)`. */
export const fieldNameOnly = (a: string): string =>
  `(${a}.note IS NULL AND (${a}.path IS NULL OR ${a}.path = ${a}.name))`;

/** The words of a distinct lower-cased field name (`field_names.words`, stored; GIN ix_field_names_search). */
export const fieldNameWords = (a: string): string => `${a}.words`;
