import { useEffect, useState } from 'react';
import { NotFound, useRouteTitle } from './components/Page';
import { SearchBox } from './components/SearchBox';
import { CrawlRunPage, CrawlRuns } from './pages/CrawlRuns';
import { DatasetPage } from './pages/Dataset';
import { JobPage, Jobs } from './pages/Jobs';
import { Login } from './pages/Login';
import { Reference } from './pages/Reference';
import { RunPage } from './pages/Run';
import { SearchPage } from './pages/Search';
import { SystemPage } from './pages/System';
import { Systems } from './pages/Systems';
import { Types } from './pages/Types';
import { UnknownDatasets } from './pages/UnknownDatasets';
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
          <Link to="/jobs">Jobs</Link>
          <Link to="/lineage/unknown">Unknown datasets</Link>
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
        {route.page === 'crawl-run' && <CrawlRunPage id={route.id} key={route.id} />}
        {route.page === 'search' && <SearchPage />}
        {route.page === 'jobs' && <Jobs />}
        {route.page === 'job' && <JobPage id={route.id} key={route.id} />}
        {route.page === 'run' && <RunPage id={route.id} key={route.id} />}
        {route.page === 'unknown-datasets' && <UnknownDatasets />}
        {route.page === 'reference' && <Reference section={route.section} />}
        {route.page === 'not-found' && <NotFound />}
      </main>
    </SessionContext.Provider>
  );
}
