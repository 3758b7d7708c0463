import {
  MAX_SEARCH_WORDS,
  SEARCH_MATCHES,
  type SearchHighlight,
  type SearchResult,
  searchWords,
} from '@aide/schemas';
import type { SearchRow } from './search.repository.js';

/** Characters of context kept on each side of the first match in a long text (comments). */
const CONTEXT = 60;

type Segment = SearchHighlight['segments'][number];

/**
 * Cuts `text` into segments, marking every word that starts with a query word (the full-text match
 * is by word prefix). Plain text in, plain text out: no markup to escape or inject.
 */
export function highlightText(text: string, words: readonly string[]): Segment[] {
  const ranges: [number, number][] = [];
  for (const word of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const lower = word[0].toLowerCase();
    const hit = words.filter((w) => lower.startsWith(w)).reduce((a, w) => Math.max(a, w.length), 0);
    // Lower-casing can change a string's length (e.g. 'İ'): mark the whole word then.
    if (hit > 0)
      ranges.push([word.index, word.index + (lower.length === word[0].length ? hit : word[0].length)]);
  }
  if (ranges.length === 0) return [{ text, match: false }];
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** A long text cut around its first match, with `…` where it was cut. */
function excerpt(segments: Segment[]): Segment[] {
  const first = segments.findIndex((s) => s.match);
  const before = segments.slice(0, first).reduce((n, s) => n + s.text.length, 0);
  const total = segments.reduce((n, s) => n + s.text.length, 0);
  const from = Math.max(0, before - CONTEXT);
  const to = Math.min(total, before + segments[first].text.length + CONTEXT * 2);
  const out: Segment[] = [];
  let at = 0;
  for (const s of segments) {
    const start = Math.max(from, at);
    const end = Math.min(to, at + s.text.length);
    if (start < end) out.push({ text: s.text.slice(start - at, end - at), match: s.match });
    at += s.text.length;
  }
  if (from > 0) out.unshift({ text: '…', match: false });
  if (to < total) out.push({ text: '…', match: false });
  return out;
}

/** The first attribute of the row with a marked word; the name when none has (a similarity match). */
function highlight(row: SearchRow, words: readonly string[]): SearchHighlight {
  const candidates: [SearchHighlight['field'], string | null][] = [
    ['name', row.name],
    ['name', row.label],
    ['path', row.field_path],
    ['pii_tags', row.pii_tags && row.pii_tags.length > 0 ? row.pii_tags.join(', ') : null],
    ['comment', row.comment],
  ];
  for (const [field, text] of candidates) {
    if (!text) continue;
    const segments = highlightText(text, words);
    if (segments.some((s) => s.match)) {
      return { field, segments: field === 'comment' ? excerpt(segments) : segments };
    }
  }
  return { field: 'name', segments: [{ text: row.name, match: false }] };
}

export function toSearchResult(row: SearchRow, q: string): SearchResult {
  const words = searchWords(q).slice(0, MAX_SEARCH_WORDS);
  const path = [
    row.system_code,
    row.dataset_name,
    row.kind === 'field' ? (row.field_path ?? row.name) : null,
  ];
  return {
    kind: row.kind,
    id: row.id,
    name: row.name,
    path: path.filter((p): p is string => p !== null).join(' / '),
    system_id: row.system_id,
    dataset_id: row.dataset_id,
    match: SEARCH_MATCHES[row.match_rank],
    score: Number(row.score),
    highlight: highlight(row, words),
    pii_tags: row.pii_tags,
  };
}
