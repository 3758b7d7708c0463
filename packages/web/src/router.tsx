import { type MouseEvent, type ReactNode, useEffect, useState } from 'react';

// A small history router for the pages under /ui (a library would cost more bytes than it saves).
export const BASE = '/ui';

export type Route =
  | { page: 'systems' }
  | { page: 'system'; id: string }
  | { page: 'dataset'; id: string }
  | { page: 'types' }
  | { page: 'crawl-runs' }
  | { page: 'crawl-run'; id: string }
  | { page: 'search' }
  | { page: 'jobs' }
  | { page: 'job'; id: string }
  | { page: 'run'; id: string }
  | { page: 'unknown-datasets' }
  | { page: 'reference'; section: ReferenceSection }
  | { page: 'not-found' };

export const REFERENCE_SECTIONS = ['kinds', 'flavors', 'types', 'casts', 'systems'] as const;
export type ReferenceSection = (typeof REFERENCE_SECTIONS)[number];

export function parseRoute(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts[0] === 'systems' && parts.length === 1)) return { page: 'systems' };
  if (parts[0] === 'systems' && parts[1]) return { page: 'system', id: parts[1] };
  if (parts[0] === 'datasets' && parts[1]) return { page: 'dataset', id: parts[1] };
  if (parts[0] === 'types') return { page: 'types' };
  if (parts[0] === 'crawl-runs' && parts[1] && parts.length === 2) return { page: 'crawl-run', id: parts[1] };
  if (parts[0] === 'crawl-runs') return { page: 'crawl-runs' };
  if (parts[0] === 'search' && parts.length === 1) return { page: 'search' };
  if (parts[0] === 'jobs' && parts.length === 1) return { page: 'jobs' };
  if (parts[0] === 'jobs' && parts[1] && parts.length === 2) return { page: 'job', id: parts[1] };
  if (parts[0] === 'runs' && parts[1] && parts.length === 2) return { page: 'run', id: parts[1] };
  if (parts[0] === 'lineage' && parts[1] === 'unknown' && parts.length === 2)
    return { page: 'unknown-datasets' };
  if (parts[0] === 'reference') {
    const section = parts[1] ?? 'kinds';
    const known = REFERENCE_SECTIONS.find((s) => s === section);
    if (known && parts.length <= 2) return { page: 'reference', section: known };
  }
  return { page: 'not-found' };
}

export function navigate(to: string): void {
  window.history.pushState(null, '', `${BASE}${to}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePathname(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return path;
}

/** The query string of the address (`?q=…`), kept current across navigations. */
export function useQueryParams(): URLSearchParams {
  const [search, setSearch] = useState(window.location.search);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return new URLSearchParams(search);
}

export function Link(props: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
  /** The full text on hover, for a link whose text is cut. */
  title?: string;
}) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a
      href={`${BASE}${props.to}`}
      onClick={onClick}
      className={props.className}
      title={props.title}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}
