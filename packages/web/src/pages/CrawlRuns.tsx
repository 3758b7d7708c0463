import type { CrawlRun } from '@aide/sdk';
import { Loaded, ScrollBox, when } from '../components/common';
import { isNotFound, NotFound, PageHeading } from '../components/Page';
import { Link } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A crawl (reads a source and reports) or an apply (publishes a report): the crawler's `config.command`. */
export function runKind(run: Pick<CrawlRun, 'config'>): 'crawl' | 'apply' {
  return run.config['command'] === 'apply' ? 'apply' : 'crawl';
}

/**
 * The run's result as a sentence from its summary fields: a crawl's changes (`changes.total`,
 * `breaking`, `compatible`) and datasets (`new`, `changed`, `removed`); an apply's created, published,
 * refused and failed datasets. Never the raw JSON.
 */
export function describeRun(run: Pick<CrawlRun, 'config' | 'status' | 'summary' | 'error_message'>): string {
  if (run.status === 'failed') return `Failed: ${run.error_message ?? 'no reason recorded'}`;
  if (run.status === 'running' || run.summary === null) return run.status === 'running' ? 'Running…' : '—';
  const s = run.summary;
  if (runKind(run) === 'apply') {
    const parts = [
      num(s['create']) > 0 ? `${num(s['create'])} created` : '',
      num(s['publish']) > 0 ? `${num(s['publish'])} published` : '',
      num(s['already_applied']) > 0 ? `${num(s['already_applied'])} already applied` : '',
      num(s['stale']) > 0 ? `${num(s['stale'])} refused as stale` : '',
      num(s['incompatible']) > 0 ? `${num(s['incompatible'])} refused as incompatible` : '',
      num(s['failed']) > 0 ? `${num(s['failed'])} failed` : '',
    ].filter(Boolean);
    return parts.length > 0 ? `Datasets: ${parts.join(', ')}` : 'Nothing to apply';
  }
  const changes = obj(s['changes']);
  const datasets = obj(s['datasets']);
  const total = num(changes['total']);
  const kinds = [
    num(changes['breaking']) > 0 ? `${num(changes['breaking'])} breaking` : '',
    num(changes['compatible']) > 0 ? `${num(changes['compatible'])} compatible` : '',
  ].filter(Boolean);
  const sets = [
    num(datasets['new']) > 0 ? `${num(datasets['new'])} new` : '',
    num(datasets['changed']) > 0 ? `${num(datasets['changed'])} changed` : '',
    num(datasets['removed']) > 0 ? `${num(datasets['removed'])} removed` : '',
  ].filter(Boolean);
  const head =
    total === 0 ? 'No changes' : `${plural(total, 'change')}${kinds.length ? `: ${kinds.join(', ')}` : ''}`;
  return sets.length > 0 ? `${head} (datasets: ${sets.join(', ')})` : head;
}

function RunDetails({ run }: { run: CrawlRun }) {
  const s = run.summary ?? {};
  const categories = Object.entries(obj(s['by_category']));
  const config = run.config;
  return (
    <details>
      <summary>Report</summary>
      <dl className="small">
        {typeof config['dialect'] === 'string' && (
          <>
            <dt>Source</dt>
            <dd>
              {config['dialect']}
              {typeof config['connection_url'] === 'string' ? ` · ${config['connection_url']}` : ''}
            </dd>
          </>
        )}
        {typeof s['report_crawl_run_id'] === 'string' && (
          <>
            <dt>Applies the report of crawl run</dt>
            <dd>
              <code>{s['report_crawl_run_id']}</code>
            </dd>
          </>
        )}
        {categories.length > 0 && (
          <>
            <dt>Changes by category</dt>
            <dd>{categories.map(([c, n]) => `${c.replaceAll('_', ' ')}: ${num(n)}`).join(', ')}</dd>
          </>
        )}
        {num(s['unmapped_columns']) > 0 && (
          <>
            <dt>Unmapped types</dt>
            <dd>{plural(num(s['unmapped_columns']), 'column')}</dd>
          </>
        )}
        <dt>Finished</dt>
        <dd>{when(run.finished_at)}</dd>
        <dt>Run id</dt>
        <dd>
          <code>{run.id}</code>
        </dd>
      </dl>
    </details>
  );
}

function SystemName({ id, names }: { id: string; names: ReadonlyMap<string, string> }) {
  return <Link to={`/systems/${id}`}>{names.get(id) ?? id}</Link>;
}

/**
 * Runs as a person reads them: when, (which system), crawl or apply, status, the result in words, and
 * the report on demand. Without `names` the system column is left out (a page about one system).
 */
export function CrawlRunTable({
  runs,
  names,
}: {
  runs: readonly CrawlRun[];
  names?: ReadonlyMap<string, string>;
}) {
  return (
    <ScrollBox label="Crawl runs">
      <table className="crawl-runs">
        <thead>
          <tr>
            <th scope="col">Started</th>
            {names && <th scope="col">System</th>}
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Result</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td>{when(r.started_at)}</td>
              {names && (
                <td>
                  <SystemName id={r.system_id} names={names} />
                </td>
              )}
              <td>
                <span className={`badge kind-${runKind(r)}`}>
                  {runKind(r) === 'apply' ? 'Apply' : 'Crawl'}
                </span>
              </td>
              <td>
                <span className={`badge status-${r.status}`}>{r.status}</span>
              </td>
              <td>{describeRun(r)}</td>
              <td>
                <RunDetails run={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

export function CrawlRuns() {
  const { client } = useSession();
  const [data] = useAsync(async () => {
    const runs = await client.crawlRuns.list({ sort: '-started_at', size: 20 });
    const ids = [...new Set(runs.items.map((r) => r.system_id))];
    const systems = await Promise.all(ids.map((id) => client.systems.get(id).catch(() => null)));
    const names = new Map(systems.flatMap((s) => (s ? [[s.id, s.name] as const] : [])));
    return { runs: runs.items, names };
  }, [client]);
  return (
    <section>
      <h1>Crawl runs</h1>
      <Loaded value={data}>
        {({ runs, names }) =>
          runs.length === 0 ? <p>No crawl runs.</p> : <CrawlRunTable runs={runs} names={names} />
        }
      </Loaded>
    </section>
  );
}

/** `/crawl-runs/<id>`: one run, as the runs table shows it, with its report open. */
export function CrawlRunPage({ id }: { id: string }) {
  const { client } = useSession();
  const [data] = useAsync(async () => {
    const run = await client.crawlRuns.get(id);
    const system = await client.systems.get(run.system_id).catch(() => null);
    return { run, names: new Map(system ? [[system.id, system.name]] : []) };
  }, [id, client]);
  if (data.state === 'error' && isNotFound(data.error)) return <NotFound what="crawl run" id={id} />;
  return (
    <section>
      <PageHeading title="Crawl run" />
      <Loaded value={data}>{({ run, names }) => <CrawlRunTable runs={[run]} names={names} />}</Loaded>
      <p>
        <Link to="/crawl-runs">Every crawl run</Link>
      </p>
    </section>
  );
}
