import { useSession } from '../session';
import { useAsync } from '../use-async';
import { Loaded } from './common';
import { fieldView, mergeLineage } from './graph-layout';
import { GraphView } from './GraphView';

const DEPTH = 3;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The lineage graph around a dataset: its dataset links and, where OpenLineage reported runs, the jobs
 * that read and write it (dataset → job → dataset). Dataset nodes lead to their datasets, job nodes to
 * their job pages.
 */
export function Lineage({ datasetId }: { datasetId: string }) {
  const { client } = useSession();
  const [graph] = useAsync(async () => {
    const [datasets, jobs] = await Promise.all([
      client.lineage.datasets(datasetId, { depth: DEPTH }),
      // A job hop is half a dataset hop: twice the depth reaches as far. One page of 1000 nodes. The
      // dataset links still show when the job graph cannot be read (the note under the graph says so).
      (async () =>
        client.lineage.jobs.graph(`dataset:${datasetId}`, { depth: 2 * DEPTH, size: 1000 }))().catch(
        () => null,
      ),
    ]);
    return { ...mergeLineage(datasetId, datasets, jobs), jobsRead: jobs !== null };
  }, [datasetId, client]);
  return (
    <Loaded value={graph}>
      {(g) => {
        const unread = g.jobsRead ? null : (
          <p className="muted small">The OpenLineage jobs could not be read.</p>
        );
        if (g.edges.length === 0)
          return (
            <>
              <p>No lineage recorded for this dataset.</p>
              {unread}
            </>
          );
        const jobs = g.nodes.filter((n) => n.kind === 'job').length;
        const datasets = g.nodes.length - jobs;
        return (
          <>
            <GraphView
              graph={g}
              title={`Lineage graph: ${plural(datasets, 'dataset')}${jobs ? `, ${plural(jobs, 'job')}` : ''}, ${plural(g.edges.length, 'link')}`}
            />
            <Legend jobs={jobs > 0} unregistered={g.nodes.some((n) => n.kind === 'unregistered')} />
            {unread}
          </>
        );
      }}
    </Loaded>
  );
}

/** What the node shapes mean (not by colour alone: jobs are rounded and marked ▶, unregistered dashed). */
function Legend({ jobs, unregistered }: { jobs: boolean; unregistered: boolean }) {
  const swatch = (kind: string) => (
    <svg width="28" height="14" aria-hidden="true" className={`lineage-swatch ${kind}`}>
      <rect x="1" y="1" width="26" height="12" rx={kind === 'job' ? 6 : 2} />
    </svg>
  );
  return (
    <p className="small muted legend">
      {swatch('dataset')} dataset{jobs && <> {swatch('job')} job</>}
      {unregistered && <> {swatch('unregistered')} dataset seen by OpenLineage, not registered</>} · arrows
      point downstream
    </p>
  );
}

/**
 * Column lineage of one field, fetched when asked for: nodes are `dataset.column`; opening one goes to
 * its dataset with that field's lineage shown.
 */
export function FieldLineage({ fieldId, fieldName }: { fieldId: string; fieldName: string }) {
  const { client } = useSession();
  const [graph] = useAsync(async () => {
    const g = await client.lineage.fields(fieldId, { depth: DEPTH });
    const datasetIds = [...new Set(g.nodes.map((n) => n.dataset_id))].slice(0, 100);
    const names = new Map(
      await Promise.all(
        datasetIds.map(async (id) => {
          const d = await client.datasets.get(id).catch(() => null);
          return [id, d?.object_name ?? id.slice(0, 8)] as const;
        }),
      ),
    );
    return fieldView(fieldId, g, (id) => names.get(id) ?? '?');
  }, [fieldId, client]);
  return (
    <Loaded value={graph}>
      {(g) =>
        g.edges.length === 0 ? (
          <p>No column lineage recorded for {fieldName}.</p>
        ) : (
          <GraphView
            graph={g}
            title={`Field lineage of ${fieldName}: ${plural(g.nodes.length, 'field')}, ${plural(g.edges.length, 'link')}`}
          />
        )
      }
    </Loaded>
  );
}
