import { contract, type RegisterUnknownDatasetResult, type UnknownDataset } from '@aide/schemas';
import { useState } from 'react';
import { ErrorMessage, Loaded, Pager, when } from '../components/common';
import { PageHeading } from '../components/Page';
import { Link } from '../router';
import { useCan, useSession } from '../session';
import { useAsync } from '../use-async';

const PAGE_SIZE = 20;

/**
 * `/lineage/unknown`: the datasets OpenLineage events named that the registry does not know (ADR
 * 0054), with the fields and jobs seen, each registrable in one click (the register route: the system
 * its namespace resolves to, version 1 from the fields seen, then its events replayed).
 */
export function UnknownDatasets() {
  const { client } = useSession();
  const [page, setPage] = useState(1);
  const [showRegistered, setShowRegistered] = useState(false);
  const [list] = useAsync(
    () =>
      client.lineageObservations.unknownDatasets({
        ...(showRegistered ? {} : { registered: false }),
        page,
        size: PAGE_SIZE,
      }),
    [page, showRegistered, client],
  );
  return (
    <section>
      <PageHeading title="Unknown datasets" />
      <p className="muted">
        Datasets that <Link to="/jobs">jobs</Link> read or wrote, named by their OpenLineage events, that no
        registered dataset matches. Registering one applies its stored events.
      </p>
      <label>
        <input
          type="checkbox"
          checked={showRegistered}
          onChange={(e) => {
            setShowRegistered(e.target.checked);
            setPage(1);
          }}
        />{' '}
        Include the ones registered since
      </label>
      <Loaded value={list}>
        {(p) =>
          p.items.length === 0 ? (
            <p>No unknown datasets.</p>
          ) : (
            <>
              <div className="scroll">
                <table className="unknown-datasets">
                  <thead>
                    <tr>
                      <th scope="col">Namespace</th>
                      <th scope="col">Name</th>
                      <th scope="col">Fields seen</th>
                      <th scope="col">First seen</th>
                      <th scope="col">Last seen</th>
                      <th scope="col">Jobs</th>
                      <th scope="col">Registry</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((u) => (
                      <UnknownRow key={u.id} unknown={u} />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={p.page} pages={p.pages} total={p.total} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** One unknown dataset; once registered here, the row links to the new dataset and says what replay did. */
function UnknownRow({ unknown: u }: { unknown: UnknownDataset }) {
  const { client } = useSession();
  const mayRegister = useCan()(contract.lineageObservations.registerUnknownDataset);
  const [state, setState] = useState<{ busy: boolean; done?: RegisterUnknownDatasetResult; error?: unknown }>(
    {
      busy: false,
    },
  );
  const register = async () => {
    setState({ busy: true });
    try {
      const done = await client.lineageObservations.registerUnknownDataset(u.id, {
        publish_schema: u.fields.length > 0,
      });
      setState({ busy: false, done });
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  const registeredId = state.done?.dataset.id ?? u.registered_dataset_id;
  return (
    <tr>
      <td className="entity-name">{u.namespace}</td>
      <th scope="row" className="entity-name">
        {u.name}
      </th>
      <td>
        {u.fields.length === 0
          ? '—'
          : u.fields.map((f) => (f.type ? `${f.name} ${f.type}` : f.name)).join(', ')}
      </td>
      <td>{when(u.first_seen)}</td>
      <td>{when(u.last_seen)}</td>
      <td>{u.jobs.map((j) => `${j.name} (${j.role})`).join(', ')}</td>
      <td>
        {registeredId ? (
          <>
            <Link to={`/datasets/${registeredId}`}>Registered</Link>
            {state.done && (
              <span className="small muted" role="status">
                {' '}
                · {state.done.replay.dataset_links} link{state.done.replay.dataset_links === 1 ? '' : 's'}{' '}
                applied
              </span>
            )}
          </>
        ) : mayRegister ? (
          <button type="button" disabled={state.busy} onClick={() => void register()}>
            Register<span className="visually-hidden"> {u.name}</span>
          </button>
        ) : (
          <span className="muted">unknown</span>
        )}
        {state.error !== undefined && <ErrorMessage error={state.error} />}
      </td>
    </tr>
  );
}
