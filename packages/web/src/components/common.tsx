import { ERROR_CATALOGUE, isErrorCode } from '@aide/schemas';
import { AideApiError, type SearchHighlight } from '@aide/sdk';
import type { ReactNode } from 'react';
import type { Async } from '../use-async';

/** Highlight segments as text nodes: a name holding markup is shown, never interpreted. */
export function Highlight({ segments }: { segments: SearchHighlight['segments'] }) {
  return (
    <>{segments.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}</>
  );
}

/**
 * A box that scrolls sideways when its table is wider than the page (a phone): reachable with the
 * keyboard, so its hidden part can be scrolled to without a mouse (axe `scrollable-region-focusable`),
 * and named for the screen reader that lands on it.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" tabIndex={0} role="group" aria-label={label}>
      {children}
    </div>
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
 * What an error means to a person: the catalogue's text for the API's code (one source: the catalogue
 * in `@aide/schemas`), or a plain sentence for failures that never reached the API.
 */
export function humanMessage(error: unknown): string {
  if (error instanceof AideApiError) {
    if (isErrorCode(error.errorCode)) return ERROR_CATALOGUE[error.errorCode].detail;
    return error.status >= 500
      ? 'The server could not answer. Try again in a moment.'
      : `The request failed (HTTP ${error.status}).`;
  }
  if (isIssueList(error)) return 'Some values are missing or invalid.';
  if (error instanceof TypeError)
    return 'The server could not be reached. Check your connection and try again.';
  return 'Something went wrong.';
}

const isIssueList = (error: unknown): error is { issues: Issue[] } =>
  typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues);

function IssueList({ issues }: { issues: Issue[] }) {
  return (
    <ul>
      {issues.map((i, n) => (
        <li key={n}>
          {Array.isArray(i.path) && i.path.length > 0 ? <code>{i.path.join('.')}</code> : null}{' '}
          {i.message ?? ''}
        </li>
      ))}
    </ul>
  );
}

/**
 * An error as a person reads it: the human message for its code (and what to do, for conflicts), with
 * the technical details — code, status, the server's detail, the validation issues by field, the
 * request id to quote — behind a "Details" disclosure.
 */
export function ErrorMessage({ error, onReload }: { error: unknown; onReload?: () => void }) {
  if (!(error instanceof AideApiError)) {
    const issues = isIssueList(error) ? error.issues : [];
    const technical = error instanceof Error ? error.message : String(error);
    return (
      <div role="alert" className="error envelope">
        <p>{humanMessage(error)}</p>
        <details>
          <summary>Details</summary>
          {issues.length > 0 ? <IssueList issues={issues} /> : <p className="small">{technical}</p>}
        </details>
      </div>
    );
  }
  const issues = Array.isArray(error.details?.['issues']) ? (error.details['issues'] as Issue[]) : [];
  const hint = HINTS[error.errorCode];
  const message = humanMessage(error);
  return (
    <div role="alert" className="error envelope">
      <p>{message}</p>
      {hint && <p>{hint}</p>}
      {error.errorCode === 'VERSION_CONFLICT' && onReload && (
        <button type="button" onClick={onReload}>
          Reload
        </button>
      )}
      <details>
        <summary>Details</summary>
        <p className="small">
          <code>{error.errorCode}</code> ({error.status}){error.detail !== message ? `: ${error.detail}` : ''}
        </p>
        {issues.length > 0 && <IssueList issues={issues} />}
        <p className="muted small">
          {error.route}
          {error.requestId ? ` · Request ${error.requestId}` : ''}
        </p>
      </details>
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
