import type { LineageDatasetRef, LineageJob, LineageRunState } from '@aide/sdk';
import { type FormEvent, useState } from 'react';
import { Loaded, Pager, when } from '../components/common';
import { isNotFound, NotFound, PageHeading } from '../components/Page';
import { Link, navigate, useQueryParams } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';

const PAGE_SIZE = 20;

/** `1 h 2 min`, `3.4 s`, `120 ms`: a run's duration as a person reads it. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function RunState({ state }: { state: LineageRunState | null | undefined }) {
  if (!state) return <span className="muted">never run</span>;
  return <span className={`badge run-${state.toLowerCase()}`}>{state}</span>;
}

/** A dataset an event named: its page when registered, else its OpenLineage name. */
export function DatasetRef({ d }: { d: LineageDatasetRef }) {
  const name = (
    <>
      <span className="muted">{d.namespace}</span> {d.name}
    </>
  );
  return d.dataset_id ? (
    <Link to={`/datasets/${d.dataset_id}`} className="entity-name">
      {name}
    </Link>
  ) : (
    <span className="entity-name">
      {name} <span className="small muted">(not registered)</span>
    </span>
  );
}

export function DatasetRefs({ refs }: { refs: readonly LineageDatasetRef[] }) {
  if (refs.length === 0) return <p className="muted">None.</p>;
  return (
    <ul>
      {refs.map((d) => (
        <li key={`${d.namespace}\u0000${d.name}`}>
          <DatasetRef d={d} />
        </li>
      ))}
    </ul>
  );
}

/** `/jobs`: the OpenLineage jobs, filtered by namespace and name (both in the address), paged. */
export function Jobs() {
  const { client } = useSession();
  const query = useQueryParams();
  const namespace = query.get('namespace') ?? '';
  const name = query.get('name') ?? '';
  const page = Math.max(1, Number(query.get('page')) || 1);
  const [draft, setDraft] = useState({ namespace, name });
  const [jobs] = useAsync(
    () =>
      client.lineage.jobs.list({
        ...(namespace ? { namespace } : {}),
        ...(name ? { name__like: name } : {}),
        page,
        size: PAGE_SIZE,
      }),
    [namespace, name, page, client],
  );
  const go = (p: { namespace: string; name: string; page?: number }) => {
    const q = new URLSearchParams();
    if (p.namespace) q.set('namespace', p.namespace);
    if (p.name) q.set('name', p.name);
    if (p.page && p.page > 1) q.set('page', String(p.page));
    navigate(`/jobs${q.size > 0 ? `?${q.toString()}` : ''}`);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go({ namespace: draft.namespace.trim(), name: draft.name.trim() });
  };
  return (
    <section>
      <PageHeading title="Jobs" />
      <p className="muted">
        Jobs and runs as OpenLineage integrations report them.{' '}
        <Link to="/lineage/unknown">Unknown datasets</Link> lists what their events named that the registry
        does not know.
      </p>
      <form className="toolbar" role="search" aria-label="Filter jobs" onSubmit={submit}>
        <label>
          Namespace{' '}
          <input
            value={draft.namespace}
            onChange={(e) => setDraft({ ...draft, namespace: e.target.value })}
          />
        </label>
        <label>
          Name contains{' '}
          <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Loaded value={jobs}>
        {(p) =>
          p.items.length === 0 ? (
            <p>No jobs{namespace || name ? ' match the filter' : ' yet'}.</p>
          ) : (
            <>
              <JobTable jobs={p.items} />
              <Pager
                page={p.page}
                pages={p.pages}
                total={p.total}
                onPage={(n) => go({ namespace, name, page: n })}
              />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function JobTable({ jobs }: { jobs: readonly LineageJob[] }) {
  return (
    <div className="scroll">
      <table className="jobs">
        <thead>
          <tr>
            <th scope="col">Namespace</th>
            <th scope="col">Name</th>
            <th scope="col">Latest run</th>
            <th scope="col">Last run</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.id}>
              <td className="entity-name">{j.namespace}</td>
              <th scope="row">
                <Link to={`/jobs/${j.id}`} className="entity-name">
                  {j.name}
                </Link>
              </th>
              <td>
                {j.latest_run ? (
                  <Link to={`/runs/${j.latest_run.id}`}>
                    <RunState state={j.latest_run.state} />
                  </Link>
                ) : (
                  <RunState state={null} />
                )}
              </td>
              <td>{when(j.latest_run?.ended_at ?? j.latest_run?.started_at ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** `/jobs/<id>`: the job's facets, source, current inputs and outputs, versions, and runs. */
export function JobPage({ id }: { id: string }) {
  const { client } = useSession();
  const [job] = useAsync(() => client.lineage.jobs.get(id), [id, client]);
  const [runPage, setRunPage] = useState(1);
  const [runs] = useAsync(
    () => client.lineage.jobs.runs(id, { page: runPage, size: PAGE_SIZE }),
    [id, runPage, client],
  );
  const [versions] = useAsync(() => client.lineage.jobs.versions(id, { size: 50 }), [id, client]);
  if (job.state === 'error' && isNotFound(job.error)) return <NotFound what="job" id={id} />;
  return (
    <section>
      <Loaded value={job}>
        {(j) => {
          const source = j.source_code_location ?? {};
          const url = text(source['url']);
          return (
            <>
              <PageHeading title={j.name}>
                <span className="entity-name">{j.name}</span>
              </PageHeading>
              <dl className="dataset-header">
                <div>
                  <dt>Namespace</dt>
                  <dd className="entity-name">{j.namespace}</dd>
                </div>
                {j.type && (
                  <div>
                    <dt>Type</dt>
                    <dd>
                      {[j.type.integration, j.type.job_type, j.type.processing_type]
                        .filter(Boolean)
                        .join(' · ')}
                    </dd>
                  </div>
                )}
                <div>
                  <dt>Current version</dt>
                  <dd>{j.current_version ?? '—'}</dd>
                </div>
                {j.description && (
                  <div>
                    <dt>Description</dt>
                    <dd>{j.description}</dd>
                  </div>
                )}
                {j.source_code_location && (
                  <div>
                    <dt>Source</dt>
                    <dd className="entity-name">
                      {[text(source['type']), url ?? text(source['path'])].filter(Boolean).join(' ')}
                      {text(source['version']) ? ` @ ${text(source['version'])}` : ''}
                    </dd>
                  </div>
                )}
              </dl>
              <h2>Inputs</h2>
              <DatasetRefs refs={j.inputs} />
              <h2>Outputs</h2>
              <DatasetRefs refs={j.outputs} />
              {j.sql && (
                <>
                  <h2>SQL</h2>
                  <pre className="schema" tabIndex={0} aria-label="The job's SQL">
                    {j.sql}
                  </pre>
                </>
              )}
              <details>
                <summary>Every facet, as sent</summary>
                <pre className="schema" tabIndex={0} aria-label="The job's facets">
                  {JSON.stringify(j.facets, null, 2)}
                </pre>
              </details>
            </>
          );
        }}
      </Loaded>
      <h2>Runs</h2>
      <Loaded value={runs}>
        {(p) =>
          p.items.length === 0 ? (
            <p>No runs.</p>
          ) : (
            <>
              <div className="scroll">
                <table className="runs">
                  <thead>
                    <tr>
                      <th scope="col">Run</th>
                      <th scope="col">State</th>
                      <th scope="col">Started</th>
                      <th scope="col">Ended</th>
                      <th scope="col">Duration</th>
                      <th scope="col">Version</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((r) => (
                      <tr key={r.id}>
                        <th scope="row">
                          <Link to={`/runs/${r.id}`}>
                            <code>{r.run_id}</code>
                          </Link>
                        </th>
                        <td>
                          <RunState state={r.state} />
                        </td>
                        <td>{when(r.started_at)}</td>
                        <td>{when(r.ended_at)}</td>
                        <td className="num">{duration(r.duration_ms)}</td>
                        <td className="num">{r.job_version ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {p.pages > 1 && <Pager page={p.page} pages={p.pages} total={p.total} onPage={setRunPage} />}
            </>
          )
        }
      </Loaded>
      <h2>Versions</h2>
      <Loaded value={versions}>
        {(p) =>
          p.items.length === 0 ? (
            <p>No versions.</p>
          ) : (
            <div className="scroll">
              <table className="versions">
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Since</th>
                    <th scope="col">Inputs</th>
                    <th scope="col">Outputs</th>
                    <th scope="col">Introduced by</th>
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((v) => (
                    <tr key={v.id}>
                      <th scope="row">v{v.version}</th>
                      <td>{when(v.created_at)}</td>
                      <td>{v.inputs.map((d) => d.name).join(', ') || '—'}</td>
                      <td>{v.outputs.map((d) => d.name).join(', ') || '—'}</td>
                      <td>
                        {v.introduced_by_run ? (
                          <Link to={`/runs/${v.introduced_by_run.id}`}>
                            run {v.introduced_by_run.state.toLowerCase()}
                          </Link>
                        ) : (
                          'a job event'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  );
}
