import type { Dataset } from '@aide/sdk';
import { Link } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { when } from './common';

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Where the dataset lives in its system, by kind: `schema.table`, the topic, the path, `db.table`. */
export function locationOf(d: Dataset): string {
  switch (d.kind) {
    case 'rdbms':
      return [d.catalog_name, d.schema_name, d.table_name].filter(Boolean).join('.');
    case 'kafka':
      return `topic ${d.topic} (${d.format})`;
    case 'storage':
    case 'sftp':
      return `${d.path} (${d.file_format})`;
    case 'hive':
      return `${d.db_name}.${d.table_name} (${d.file_format})`;
  }
}

/** Who owns it, when the registry has it: `extra.owner` (text, or an object with a name or an email). */
export function ownerOf(d: Pick<Dataset, 'extra'>): string | null {
  const owner = d.extra?.['owner'];
  if (typeof owner === 'string') return owner;
  const o = obj(owner);
  const text = [o['name'], o['email']].filter((v) => typeof v === 'string').join(' ');
  return text || null;
}

/** The header of a dataset's page: system, kind, flavor, layer, location, owner, description, last crawl. */
export function DatasetHeader({ dataset: d }: { dataset: Dataset }) {
  const { client } = useSession();
  const [loaded] = useAsync(() => client.systems.get(d.system_id), [d.system_id, client]);
  const system = loaded.state === 'done' ? loaded.value : null;
  const flavorId = d.flavor_id ?? system?.flavor_id;
  const [flavor] = useAsync(
    async () => (flavorId ? client.systemFlavors.get(flavorId) : null),
    [flavorId, client],
  );
  // The newest run whose report names it (a crawl's `datasets[]` or an apply's `applied[]`), found
  // by the server however long ago (ADR 0061).
  const [crawl] = useAsync(async () => {
    const runs = await client.crawlRuns.list({ dataset_id: d.id, sort: '-started_at', size: 1 });
    return runs.items[0] ?? null;
  }, [d.id, client]);
  const f = {
    system,
    flavor: flavor.state === 'done' ? flavor.value : null,
    crawl: crawl.state === 'done' ? crawl.value : undefined,
  };
  const owner = ownerOf(d);
  return (
    <dl className="dataset-header" data-testid="dataset-header">
      <div>
        <dt>System</dt>
        <dd>
          <Link to={`/systems/${d.system_id}`}>
            {f.system ? (
              <>
                {f.system.name} (<code>{f.system.code}</code>)
              </>
            ) : (
              'of this dataset'
            )}
          </Link>
        </dd>
      </div>
      <div>
        <dt>Kind</dt>
        <dd>{d.kind}</dd>
      </div>
      <div>
        <dt>Flavor</dt>
        <dd>
          {f.flavor ? <code>{f.flavor.code}</code> : '—'}
          {f.flavor && (d.flavor_id ? ' (its own)' : " (its system's)")}
        </dd>
      </div>
      <div>
        <dt>Location</dt>
        <dd className="entity-name">{locationOf(d)}</dd>
      </div>
      {d.layer && (
        <div>
          <dt>Layer</dt>
          <dd>{d.layer}</dd>
        </div>
      )}
      {owner && (
        <div>
          <dt>Owner</dt>
          <dd>{owner}</dd>
        </div>
      )}
      {d.note && (
        <div>
          <dt>Description</dt>
          <dd>{d.note}</dd>
        </div>
      )}
      <div>
        <dt>Last crawl</dt>
        <dd>
          {f.crawl === undefined ? (
            '…'
          ) : f.crawl ? (
            <Link to={`/crawl-runs/${f.crawl.id}`}>
              {f.crawl.config['command'] === 'apply' ? 'Apply' : 'Crawl'} of {when(f.crawl.started_at)} (
              {f.crawl.status})
            </Link>
          ) : (
            'No crawl run names it'
          )}
        </dd>
      </div>
    </dl>
  );
}
