import { Loaded, Pager } from '../components/common';
import { PageHeading } from '../components/Page';
import { Link } from '../router';
import { useSession } from '../session';
import { useUrlPage } from '../url-state';
import { useAsync } from '../use-async';

const SIZE = 50;

/** Systems with their flavor and number of live datasets. */
export function Systems() {
  const { client } = useSession();
  const [page, setPage] = useUrlPage();
  const [data] = useAsync(async () => {
    const [systems, flavors] = await Promise.all([
      client.systems.list({ page, size: SIZE, sort: 'code' }),
      client.systemFlavors.list({ size: 100 }),
    ]);
    // One request for the page's counts (GET /systems/dataset-counts), not one per system.
    const counts = new Map(
      (await client.systems.datasetCounts(systems.items.map((s) => s.id))).map((c) => [
        c.system_id,
        c.dataset_count,
      ]),
    );
    const flavor = new Map(flavors.items.map((f) => [f.id, f.code]));
    return {
      systems,
      rows: systems.items.map((s) => ({
        s,
        flavor: flavor.get(s.flavor_id) ?? '?',
        count: counts.get(s.id) ?? 0,
      })),
    };
  }, [page, client]);
  return (
    <section>
      <PageHeading title="Systems" />
      <Loaded value={data}>
        {({ systems, rows }) => (
          <>
            <div className="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col">Name</th>
                    <th scope="col">Flavor</th>
                    <th scope="col">Datasets</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ s, flavor, count }) => (
                    <tr key={s.id}>
                      <td>
                        <Link to={`/systems/${s.id}`}>{s.code}</Link>
                      </td>
                      <td>{s.name}</td>
                      <td>{flavor}</td>
                      <td className="num">{count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={systems.page} pages={systems.pages} total={systems.total} onPage={setPage} />
          </>
        )}
      </Loaded>
    </section>
  );
}
