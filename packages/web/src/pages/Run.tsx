import type { LineageRun } from '@aide/sdk';
import { Loaded, when } from '../components/common';
import { isNotFound, NotFound, PageHeading } from '../components/Page';
import { Link } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { DatasetRef, duration, RunState } from './Jobs';

/** `/runs/<id>`: a run's state, times, parent, error, inputs and outputs, and its events as sent. */
export function RunPage({ id }: { id: string }) {
  const { client } = useSession();
  const [run] = useAsync(() => client.lineage.runs.get(id), [id, client]);
  const [events] = useAsync(() => client.lineage.runs.events(id), [id, client]);
  if (run.state === 'error' && isNotFound(run.error)) return <NotFound what="run" id={id} />;
  return (
    <section>
      <Loaded value={run}>{(r) => <RunFacts run={r} />}</Loaded>
      <h2>Events</h2>
      <Loaded value={events}>
        {(list) =>
          list.length === 0 ? (
            <p>No events stored (their retention may have passed).</p>
          ) : (
            <ol className="run-events">
              {list.map((e, i) => (
                <li key={i}>
                  <details>
                    <summary>
                      <span className="badge">{e.event_type}</span> at {when(e.event_time)}
                    </summary>
                    {/* Shown as text, never interpreted: an event is whatever an integration sent. */}
                    <pre className="schema" tabIndex={0} aria-label={`Event ${i + 1} as sent`}>
                      {JSON.stringify(e.event, null, 2)}
                    </pre>
                  </details>
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
    </section>
  );
}

function RunFacts({ run: r }: { run: LineageRun }) {
  return (
    <>
      <PageHeading title={`Run of ${r.job.name}`}>
        Run of{' '}
        <Link to={`/jobs/${r.job.id}`} className="entity-name">
          {r.job.name}
        </Link>
      </PageHeading>
      <dl className="dataset-header" data-testid="run-facts">
        <div>
          <dt>State</dt>
          <dd>
            <RunState state={r.state} />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{when(r.started_at)}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{when(r.ended_at)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration(r.duration_ms)}</dd>
        </div>
        {(r.nominal_start_time || r.nominal_end_time) && (
          <div>
            <dt>Nominal time</dt>
            <dd>
              {when(r.nominal_start_time)}
              {r.nominal_end_time ? ` to ${when(r.nominal_end_time)}` : ''}
            </dd>
          </div>
        )}
        <div>
          <dt>Run id</dt>
          <dd>
            <code>{r.run_id}</code>
          </dd>
        </div>
        {r.parent && (
          <div>
            <dt>Parent run</dt>
            <dd>
              {r.parent.id ? (
                <Link to={`/runs/${r.parent.id}`}>{r.parent.job_name ?? r.parent.run_id}</Link>
              ) : (
                <>
                  {r.parent.job_name ?? ''} <code>{r.parent.run_id}</code>{' '}
                  <span className="small muted">(not received)</span>
                </>
              )}
            </dd>
          </div>
        )}
        {r.job_version !== null && (
          <div>
            <dt>Job version</dt>
            <dd>{r.job_version}</dd>
          </div>
        )}
      </dl>
      {r.error && (
        <div className="error envelope run-error">
          <p>
            <strong>Error:</strong> {r.error.message ?? '(no message)'}
            {r.error.programming_language ? ` (${r.error.programming_language})` : ''}
          </p>
          {r.error.stack_trace && (
            <details>
              <summary>Stack trace</summary>
              <pre className="schema" tabIndex={0} aria-label="Stack trace">
                {r.error.stack_trace}
              </pre>
            </details>
          )}
        </div>
      )}
      <h2>Inputs</h2>
      <RunDatasets list={r.inputs} />
      <h2>Outputs</h2>
      <RunDatasets list={r.outputs} />
    </>
  );
}

function RunDatasets({ list }: { list: LineageRun['inputs'] }) {
  if (list.length === 0) return <p className="muted">None.</p>;
  return (
    <ul>
      {list.map((d) => (
        <li key={`${d.namespace}\u0000${d.name}`}>
          <DatasetRef d={d} />
          {Object.keys(d.facets).length > 0 && (
            <span className="small muted"> · facets: {Object.keys(d.facets).join(', ')}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
