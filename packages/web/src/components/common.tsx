import { AideApiError, type SearchHighlight } from '@aide/sdk';
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
  if (value.state === 'error') return <ErrorMessage error={value.error} />;
  return <>{children(value.value)}</>;
}

interface Issue {
  path?: unknown[];
  message?: string;
}

/** What a conflict means to the person who hit it, and what to do. */
const HINTS: Record<string, string> = {
  VERSION_CONFLICT:
    'Someone changed this since you opened it. Reload it to see their change, then apply yours again.',
  PRECONDITION_REQUIRED: 'The change did not say which version it was based on. Reload and try again.',
  FORBIDDEN: 'Your account may not do this.',
  HAS_DEPENDENT_ENTITIES: 'Other entries still use it: remove or move them first.',
};

/**
 * An error shown whole: the API's envelope (`error_code`, `detail`, the validation issues by field and
 * the request id to quote), or a plain message for anything else.
 */
export function ErrorMessage({ error, onReload }: { error: unknown; onReload?: () => void }) {
  if (!(error instanceof AideApiError))
    return (
      <p role="alert" className="error">
        {error instanceof Error ? error.message : String(error)}
      </p>
    );
  const issues = Array.isArray(error.details?.['issues']) ? (error.details['issues'] as Issue[]) : [];
  const hint = HINTS[error.errorCode];
  return (
    <div role="alert" className="error envelope">
      <p>
        <strong>{error.errorCode}</strong> ({error.status}): {error.detail}
      </p>
      {issues.length > 0 && (
        <ul>
          {issues.map((i, n) => (
            <li key={n}>
              {Array.isArray(i.path) && i.path.length > 0 ? <code>{i.path.join('.')}</code> : null}{' '}
              {i.message ?? ''}
            </li>
          ))}
        </ul>
      )}
      {hint && <p>{hint}</p>}
      {error.errorCode === 'VERSION_CONFLICT' && onReload && (
        <button type="button" onClick={onReload}>
          Reload
        </button>
      )}
      {error.requestId && <p className="muted small">Request {error.requestId}</p>}
    </div>
  );
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
