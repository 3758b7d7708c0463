import { AideApiError } from '@aide/sdk';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, type Route } from '../router';

/** The tab title of a page: `<entity> · AIDE`. */
export const pageTitle = (entity: string) => `${entity} · AIDE`;

/**
 * A page's main heading: it names the tab (`<entity> · AIDE`) and takes the focus when it appears,
 * so that after a navigation a screen reader starts at the new page, not at `<body>`.
 */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  useEffect(() => {
    // Not while the user types somewhere (the search box keeps its focus while it shows results).
    const active = document.activeElement;
    if (active && active !== document.body && active.matches('input, textarea, select')) return;
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="page-heading">
      {children ?? title}
    </h1>
  );
}

/** The titles of the pages whose heading is not a `PageHeading` (set on each navigation by the App). */
const ROUTE_TITLES: Partial<Record<Route['page'], string>> = {
  types: 'Types',
  'crawl-runs': 'Crawl runs',
  reference: 'Reference data',
};

/**
 * For the pages without a `PageHeading`: the tab title from the route and the focus on the page's
 * `h1` after a navigation (not on the first load).
 */
export function useRouteTitle(route: Route, pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    const title = ROUTE_TITLES[route.page];
    const wasFirst = first.current;
    first.current = false;
    if (!title) return;
    document.title = pageTitle(title);
    if (wasFirst) return;
    const h1 = document.querySelector<HTMLElement>('main h1');
    if (h1) {
      h1.tabIndex = -1;
      h1.focus({ preventScroll: true });
    }
  }, [route.page, pathname]);
}

/** The API's "no such entity". */
export const isNotFound = (error: unknown): boolean => error instanceof AideApiError && error.status === 404;

/**
 * One not-found page for an unknown entity URL (or any unknown address): a heading, what was looked
 * for, and a way on.
 */
export function NotFound({ what, id }: { what?: string; id?: string }) {
  const title = what ? `${what[0]?.toUpperCase()}${what.slice(1)} not found` : 'Page not found';
  return (
    <section className="not-found">
      <PageHeading title={title} />
      <p>
        {what ? (
          <>
            There is no {what}
            {id ? (
              <>
                {' '}
                with the id <code>{id}</code>
              </>
            ) : null}
            . It may have been deleted, or the link is wrong.
          </>
        ) : (
          'Nothing lives at this address.'
        )}
      </p>
      <p>
        <Link to="/systems">Browse the systems</Link> or search above.
      </p>
    </section>
  );
}
