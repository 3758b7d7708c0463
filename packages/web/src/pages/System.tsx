import { Loaded, Pager } from '../components/common';
import { isNotFound, NotFound, PageHeading } from '../components/Page';
import { Link } from '../router';
import { useSession } from '../session';
import { useUrlPage, useUrlParam } from '../url-state';
import { useAsync } from '../use-async';

const SORTS = {
  object_name: 'Name',
  '-updated_at': 'Recently changed',
  layer: 'Layer',
  kind: 'Kind',
} as const;

/** A system and its datasets: name filter, sort and paging done by the API. */
export function SystemPage({ id }: { id: string }) {
  const { client } = useSession();
  // Filter, sort and page live in the URL: a reload or a shared link shows the same list.
  const [filter, setFilter] = useUrlParam('q', '');
  const [sortText, setSort] = useUrlParam('sort', 'object_name');
  const sort: keyof typeof SORTS = sortText in SORTS ? (sortText as keyof typeof SORTS) : 'object_name';
  const [page, setPage] = useUrlPage();
  const [system] = useAsync(() => client.systems.get(id), [id, client]);
  const [datasets] = useAsync(
    () =>
      client.datasets.list({
        system_id: id,
        sort,
        page,
        size: 25,
        // `__like` is a case-insensitive substring match (the API escapes wildcards).
        ...(filter.trim() ? { object_name__like: filter.trim() } : {}),
      }),
    [id, sort, page, filter, client],
  );
  if (system.state === 'error' && isNotFound(system.error)) return <NotFound what="system" id={id} />;
  return (
    <section>
      <Loaded value={system}>
        {(s) => (
          <>
            <PageHeading title={s.code}>
              <span className="entity-name">{s.code}</span>
            </PageHeading>
            <p>
              {s.name}
              {s.note ? ` — ${s.note}` : ''}
            </p>
          </>
        )}
      </Loaded>
      <h2>Datasets</h2>
      <div className="toolbar">
        <label>
          Filter by name{' '}
          <input
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <label>
          Sort{' '}
          <select
            value={sort}
            onChange={(e) => {
              setSort(e.target.value);
              setPage(1);
            }}
          >
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded value={datasets}>
        {(p) => (
          <>
            <div className="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Dataset</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Layer</th>
                    <th scope="col">Comment</th>
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((d) => (
                    <tr key={d.id}>
                      <td>
                        <Link to={`/datasets/${d.id}`} title={d.object_name}>
                          <span className="truncate">{d.object_name}</span>
                        </Link>
                      </td>
                      <td>{d.kind}</td>
                      <td>{d.layer ?? '—'}</td>
                      <td>{d.note ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={p.page} pages={p.pages} total={p.total} onPage={setPage} />
          </>
        )}
      </Loaded>
    </section>
  );
}
