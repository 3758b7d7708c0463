import type { SearchHighlight } from '@aide/sdk';
import type { ReactNode } from 'react';
import type { Async } from '../use-async';

/** Highlight segments as text nodes: a name holding markup is shown, never interpreted. */
export function Highlight({ segments }: { segments: SearchHighlight['segments'] }) {
  return (
    <>{segments.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}</>
  );
}

export function Loaded<T>({ value, children }: { value: Async<T>; children: (v: T) => ReactNode }) {
  if (value.state === 'loading') return <p aria-live="polite">Loading…</p>;
  if (value.state === 'error')
    return (
      <p role="alert" className="error">
        {value.error.message}
      </p>
    );
  return <>{children(value.value)}</>;
}

export function Pager(props: { page: number; pages: number; total: number; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {props.page} of {Math.max(1, props.pages)} ({props.total} in all)
      </span>
      <button type="button" disabled={props.page >= props.pages} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
