import { useEffect, useState } from 'react';
import { NotFound, useRouteTitle } from './components/Page';
import { SearchBox } from './components/SearchBox';
import { CrawlRuns } from './pages/CrawlRuns';
import { DatasetPage } from './pages/Dataset';
import { Login } from './pages/Login';
import { Reference } from './pages/Reference';
import { SystemPage } from './pages/System';
import { Systems } from './pages/Systems';
import { Types } from './pages/Types';
import { Link, parseRoute, usePathname } from './router';
import { logOut, onSessionEnded, type Session, SessionContext } from './session';

export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const pathname = usePathname();
  const route = parseRoute(pathname);
  useRouteTitle(route, pathname);
  // A session the server ended (logout-all, expiry) signs the user out; the login page says why.
  useEffect(() => onSessionEnded(() => setSession(null)), []);
  if (!session) return <Login onSession={setSession} />;
  return (
    <SessionContext.Provider value={session}>
      <header>
        <nav aria-label="Main">
          <Link to="/" className="brand">
            AIDE Metastore
          </Link>
          <Link to="/systems">Systems</Link>
          <Link to="/types">Types</Link>
          <Link to="/crawl-runs">Crawl runs</Link>
          <Link to="/reference">Reference data</Link>
        </nav>
        <SearchBox />
        <div className="user">
          {session.user.email}
          {session.user.is_superuser ? ' (superuser)' : ''}{' '}
          <button
            type="button"
            onClick={() => {
              void logOut(session);
              setSession(null);
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main>
        {route.page === 'systems' && <Systems />}
        {route.page === 'system' && <SystemPage id={route.id} key={route.id} />}
        {route.page === 'dataset' && <DatasetPage id={route.id} key={route.id} />}
        {route.page === 'types' && <Types />}
        {route.page === 'crawl-runs' && <CrawlRuns />}
        {route.page === 'reference' && <Reference section={route.section} />}
        {route.page === 'not-found' && <NotFound />}
      </main>
    </SessionContext.Provider>
  );
}
