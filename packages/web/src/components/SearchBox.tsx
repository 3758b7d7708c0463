import type { SearchResult } from '@aide/sdk';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { navigate } from '../router';
import { useSession } from '../session';
import { Highlight } from './common';

const DEBOUNCE_MS = 150;

/** Where a result leads: systems and datasets to their page, a field to its dataset's. */
export function resultPath(r: SearchResult): string {
  if (r.kind === 'system') return `/systems/${r.id}`;
  return `/datasets/${r.dataset_id ?? r.id}`;
}

/** The search box of every page: `/` focuses it; results as you type; arrows and Enter pick one. */
export function SearchBox() {
  const { client } = useSession();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<SearchResult[]>([]);
  const [total, setTotal] = useState(0);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing =
        target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if (e.key === '/' && !typing) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const text = q.trim();
    if (!/[\p{L}\p{N}]/u.test(text)) {
      setResults([]);
      setTotal(0);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      client.search({ q: text, size: 10 }, { signal: controller.signal }).then(
        (page) => {
          setResults(page.items);
          setTotal(page.total);
          setActive(-1);
          setOpen(true);
        },
        () => undefined, // aborted by the next keystroke, or shown as no results
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, client]);

  const go = (r: SearchResult) => {
    setOpen(false);
    setQ('');
    navigate(resultPath(r));
  };
  // The last option: the search page, with paging and facets (`/search?q=`).
  const seeAll = () => {
    setOpen(false);
    setQ('');
    navigate(`/search?${new URLSearchParams({ q: q.trim() }).toString()}`);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(results.length, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (e.key === 'Enter' && (active === results.length || results.length === 0)) {
      if (/[\p{L}\p{N}]/u.test(q)) seeAll();
    } else if (e.key === 'Enter') {
      go(results[Math.max(0, active)] as SearchResult);
    } else if (e.key === 'Escape') {
      setOpen(false);
      input.current?.blur();
    }
  };
  const shown = open && q.trim() !== '';
  return (
    <div className="search" role="search" aria-label="Quick search">
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search systems, datasets and fields
      </label>
      <input
        id={`${listId}-input`}
        ref={input}
        type="search"
        placeholder="Search (press /)"
        autoComplete="off"
        value={q}
        role="combobox"
        aria-expanded={shown}
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
      />
      {shown && (
        <ul id={listId} role="listbox" className="search-results" aria-label="Search results">
          {results.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled className="muted">
              No match
            </li>
          )}
          {results.map((r, i) => (
            <li
              key={`${r.kind}:${r.id}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                go(r);
              }}
            >
              <span className="badge">{r.kind}</span> <Highlight segments={r.highlight.segments} />
              <div className="muted small">
                {r.path}
                {r.pii_tags && r.pii_tags.length > 0 ? ` · PII: ${r.pii_tags.join(', ')}` : ''}
                {r.match === 'similar' ? ' · similar spelling' : ''}
              </div>
            </li>
          ))}
          <li
            id={`${listId}-${results.length}`}
            role="option"
            aria-selected={active === results.length}
            className={`see-all${active === results.length ? ' active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              seeAll();
            }}
          >
            See all results{total > results.length ? ` (${total})` : ''}, with filters
          </li>
        </ul>
      )}
    </div>
  );
}
