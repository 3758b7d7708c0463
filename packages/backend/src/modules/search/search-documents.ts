// The searchable text of systems, datasets and fields, as SQL expressions over a table alias. They
// are, character for character, the expressions indexed by migration 1765400000000-Search: the
// planner uses an expression index only for the same expression (checked by EXPLAIN in the e2e test).

const words = (text: string) => `translate(${text}, '._-/:', '     ')`;

function tsvector(names: string, comment: string): string {
  return (
    `(setweight(to_tsvector('simple'::regconfig, ${words(names)}), 'A') || ` +
    `setweight(to_tsvector('simple'::regconfig, ${words(`coalesce(${comment}, '')`)}), 'C'))`
  );
}

export interface SearchDocument {
  /** Names weighted A, the comment weighted C. */
  readonly tsvector: string;
  /** The lower-cased name compared by trigram word similarity, and for exact and prefix matches. */
  readonly trigram: string;
}

export const systemDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.code || ' ' || ${a}.name`, `${a}.note`),
  trigram: `lower(${a}.code || ' ' || ${a}.name)`,
});

export const datasetDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.object_name || ' ' || coalesce(${a}.layer, '')`, `${a}.note`),
  trigram: `lower(${a}.object_name)`,
});

export const fieldDocument = (a: string): SearchDocument => ({
  tsvector: tsvector(`${a}.name || ' ' || coalesce(${a}.path, '')`, `${a}.note`),
  trigram: `lower(${a}.name)`,
});
