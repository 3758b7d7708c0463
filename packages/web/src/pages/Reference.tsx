import {
  CAST_SAFETIES,
  contract,
  CreateCastRuleSchema,
  CreateSystemFlavorSchema,
  CreateSystemKindSchema,
  CreateSystemSchema,
  MAX_IN_LIST,
  UpdateCastRuleSchema,
  UpdateSystemFlavorSchema,
  UpdateSystemKindSchema,
  UpdateSystemSchema,
} from '@aide/schemas';
import type { AideClient, CastRule, System, SystemFlavor, SystemKind } from '@aide/sdk';
import { Loaded } from '../components/common';
import { type EntityAdmin, EntityTable, sdkCalls } from '../components/EntityEditor';
import { Link, type ReferenceSection } from '../router';
import { useSession } from '../session';
import { TypeCatalogue } from './Types';
import { useUrlPage, useUrlParam } from '../url-state';
import { useAsync } from '../use-async';

const SECTIONS: Record<ReferenceSection, string> = {
  kinds: 'System kinds',
  flavors: 'System flavors',
  types: 'Data types',
  casts: 'Cast rules',
  systems: 'Systems',
};

const SIZE = 50;
type Option = { value: string; label: string };

/** Every row of a list (pages of 100), for the choices of a select. */
async function all<T>(list: (page: number) => Promise<{ items: T[]; pages: number }>): Promise<T[]> {
  const first = await list(1);
  const rest = await Promise.all(Array.from({ length: Math.max(0, first.pages - 1) }, (_, i) => list(i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}

/** The reference data (kinds, flavors, types, cast rules, systems): browse, and edit where allowed. */
export function Reference({ section }: { section: ReferenceSection }) {
  return (
    <section>
      <h1>Reference data</h1>
      <nav aria-label="Reference data" className="tabs">
        {Object.entries(SECTIONS).map(([key, label]) => (
          <Link key={key} to={`/reference/${key}`} current={key === section}>
            {label}
          </Link>
        ))}
      </nav>
      <h2>{SECTIONS[section]}</h2>
      {section === 'kinds' && <Kinds />}
      {section === 'flavors' && <Flavors />}
      {section === 'types' && <TypeCatalogue />}
      {section === 'casts' && <CastRules />}
      {section === 'systems' && <Systems />}
    </section>
  );
}

const note = { key: 'note', label: 'Note', kind: 'textarea' } as const;

function Kinds() {
  const { client } = useSession();
  const [page, setPage] = useUrlPage();
  const [kinds, reload] = useAsync(
    () => client.systemKinds.list({ page, size: SIZE, sort: 'code' }),
    [page, client],
  );
  const admin: EntityAdmin<SystemKind> = {
    singular: 'system kind',
    routes: contract.systemKinds,
    createSchema: CreateSystemKindSchema,
    updateSchema: UpdateSystemKindSchema,
    fields: [
      { key: 'code', label: 'Code', kind: 'text' },
      { key: 'name', label: 'Name', kind: 'text' },
      note,
    ],
    columns: [
      { label: 'Code', value: (k) => k.code },
      { label: 'Name', value: (k) => k.name },
      { label: 'Note', value: (k) => k.note ?? '' },
    ],
    label: (k) => k.code,
    ...sdkCalls(client.systemKinds),
  };
  return (
    <Loaded value={kinds}>
      {(p) => <EntityTable admin={admin} page={p} onPage={setPage} onChanged={reload} />}
    </Loaded>
  );
}

function Flavors() {
  const { client } = useSession();
  const [page, setPage] = useUrlPage();
  const [data, reload] = useAsync(async () => {
    const [flavors, kinds] = await Promise.all([
      client.systemFlavors.list({ page, size: SIZE, sort: 'code' }),
      all((n) => client.systemKinds.list({ page: n, size: 100, sort: 'code' })),
    ]);
    return { flavors, kinds };
  }, [page, client]);
  return (
    <Loaded value={data}>
      {({ flavors, kinds }) => {
        const kindCode = new Map(kinds.map((k) => [k.id, k.code]));
        const admin: EntityAdmin<SystemFlavor> = {
          singular: 'flavor',
          routes: contract.systemFlavors,
          createSchema: CreateSystemFlavorSchema,
          updateSchema: UpdateSystemFlavorSchema,
          fields: [
            { key: 'code', label: 'Code', kind: 'text' },
            { key: 'name', label: 'Name', kind: 'text' },
            { key: 'vendor', label: 'Vendor', kind: 'text' },
            { key: 'versions', label: 'Versions', kind: 'list', hint: 'Comma-separated, e.g. 14, 15' },
            {
              key: 'kind_id',
              label: 'Kind',
              kind: 'select',
              options: kinds.map((k) => ({ value: k.id, label: k.code })),
            },
            note,
          ],
          columns: [
            { label: 'Code', value: (f) => f.code },
            { label: 'Name', value: (f) => f.name },
            { label: 'Vendor', value: (f) => f.vendor ?? '' },
            { label: 'Versions', value: (f) => (f.versions ?? []).join(', ') },
            { label: 'Kind', value: (f) => kindCode.get(f.kind_id) ?? '?' },
          ],
          label: (f) => f.code,
          ...sdkCalls(client.systemFlavors),
        };
        return <EntityTable admin={admin} page={flavors} onPage={setPage} onChanged={reload} />;
      }}
    </Loaded>
  );
}

/** The flavors as select options (a registry has a handful). */
function useFlavorOptions(client: AideClient) {
  return useAsync(
    async () =>
      (await all((n) => client.systemFlavors.list({ page: n, size: 100, sort: 'code' }))).map(
        (f): Option => ({ value: f.id, label: f.code }),
      ),
    [client],
  );
}

/**
 * The cast-rule list filters for a source and a target flavor (either may be unset): the ids of the
 * flavor's data types, as `source_data_type_id__in` / `target_data_type_id__in`. `null` when a chosen
 * flavor has no data types (no rule can match it: nothing to ask).
 */
export function castRuleFilters(
  types: readonly { id: string; system_flavor_id: string }[],
  sourceFlavorId: string,
  targetFlavorId: string,
): { source_data_type_id__in?: string; target_data_type_id__in?: string } | null {
  const idsOf = (flavorId: string) => {
    const ids = types.filter((t) => t.system_flavor_id === flavorId).map((t) => t.id);
    if (ids.length > MAX_IN_LIST)
      throw new Error(`This flavor has ${ids.length} data types: the filter takes at most ${MAX_IN_LIST}.`);
    return ids;
  };
  const filters: { source_data_type_id__in?: string; target_data_type_id__in?: string } = {};
  for (const [key, flavorId] of [
    ['source_data_type_id__in', sourceFlavorId],
    ['target_data_type_id__in', targetFlavorId],
  ] as const) {
    if (flavorId === '') continue;
    const ids = idsOf(flavorId);
    if (ids.length === 0) return null;
    filters[key] = ids.join(',');
  }
  return filters;
}

function CastRules() {
  const { client } = useSession();
  const [page, setPage] = useUrlPage();
  const [source, setSource] = useUrlParam('source', '');
  const [target, setTarget] = useUrlParam('target', '');
  const [reference] = useAsync(async () => {
    const [types, flavors] = await Promise.all([
      all((n) => client.dataTypes.list({ page: n, size: 100, sort: 'code' })),
      all((n) => client.systemFlavors.list({ page: n, size: 100, sort: 'code' })),
    ]);
    return { types, flavors };
  }, [client]);
  const [data, reload] = useAsync(async () => {
    if (reference.state !== 'done') return null;
    const { types, flavors } = reference.value;
    const filters = castRuleFilters(types, source, target);
    const rules =
      filters === null
        ? { items: [], total: 0, page: 1, size: SIZE, pages: 0 }
        : await client.castRules.list({ ...filters, page, size: SIZE, sort: 'created_at' });
    const flavorCode = new Map(flavors.map((f) => [f.id, f.code]));
    const options = types
      .map((t) => ({ value: t.id, label: `${flavorCode.get(t.system_flavor_id) ?? '?'}.${t.code}` }))
      .sort((a, b) => a.label.localeCompare(b.label));
    return { rules, options };
  }, [reference, source, target, page, client]);
  const flavorChoices = reference.state === 'done' ? reference.value.flavors : [];
  const flavorSelect = (label: string, value: string, set: (v: string) => void) => (
    <label>
      {label}{' '}
      <select
        value={value}
        onChange={(e) => {
          set(e.target.value);
          setPage(1);
        }}
      >
        <option value="">any</option>
        {flavorChoices.map((f) => (
          <option key={f.id} value={f.id}>
            {f.code}
          </option>
        ))}
      </select>
    </label>
  );
  const table = (
    <Loaded value={data}>
      {(loaded) => {
        if (loaded === null) return null;
        const { rules, options } = loaded;
        const typeLabel = new Map(options.map((o) => [o.value, o.label]));
        const admin: EntityAdmin<CastRule> = {
          singular: 'cast rule',
          routes: contract.castRules,
          createSchema: CreateCastRuleSchema,
          updateSchema: UpdateCastRuleSchema,
          fields: [
            { key: 'source_data_type_id', label: 'Source type', kind: 'select', options },
            { key: 'target_data_type_id', label: 'Target type', kind: 'select', options },
            {
              key: 'safety',
              label: 'Safety',
              kind: 'select',
              options: CAST_SAFETIES.map((s) => ({ value: s, label: s })),
            },
            {
              key: 'param_mapping',
              label: 'Parameter mapping (JSON)',
              kind: 'json',
              hint: '"@name" copies a source parameter, e.g. {"precision": "@precision"}',
            },
            note,
          ],
          columns: [
            { label: 'Source', value: (r) => typeLabel.get(r.source_data_type_id) ?? '?' },
            { label: 'Target', value: (r) => typeLabel.get(r.target_data_type_id) ?? '?' },
            { label: 'Safety', value: (r) => r.safety },
            { label: 'Mapping', value: (r) => <code>{JSON.stringify(r.param_mapping)}</code> },
          ],
          label: (r) =>
            `${typeLabel.get(r.source_data_type_id) ?? '?'} to ${typeLabel.get(r.target_data_type_id) ?? '?'}`,
          ...sdkCalls(client.castRules),
        };
        return <EntityTable admin={admin} page={rules} onPage={setPage} onChanged={reload} />;
      }}
    </Loaded>
  );
  return (
    <>
      <div className="toolbar" role="group" aria-label="Filter cast rules by flavor">
        {flavorSelect('Source flavor', source, setSource)} {flavorSelect('Target flavor', target, setTarget)}
      </div>
      {reference.state === 'error' ? <Loaded value={reference}>{() => null}</Loaded> : table}
    </>
  );
}

function Systems() {
  const { client } = useSession();
  const [flavors] = useFlavorOptions(client);
  const [page, setPage] = useUrlPage();
  const [systems, reload] = useAsync(
    () => client.systems.list({ page, size: SIZE, sort: 'code' }),
    [page, client],
  );
  return (
    <Loaded value={flavors}>
      {(options) => {
        const flavorCode = new Map(options.map((f) => [f.value, f.label]));
        const admin: EntityAdmin<System> = {
          singular: 'system',
          routes: contract.systems,
          createSchema: CreateSystemSchema,
          updateSchema: UpdateSystemSchema,
          fields: [
            { key: 'code', label: 'Code', kind: 'text' },
            { key: 'name', label: 'Name', kind: 'text' },
            {
              key: 'flavor_id',
              label: 'Flavor',
              kind: 'select',
              options,
              placeholder: 'Choose a flavor…',
              hint: 'Required: the database product and version the system runs',
              required: 'Choose the flavor of the system.',
            },
            // The API's default for a new system.
            { key: 'is_active', label: 'Active', kind: 'bool', initial: 'true' },
            { key: 'tags', label: 'Tags', kind: 'list', hint: 'Comma-separated' },
            { key: 'extra', label: 'Extra (JSON)', kind: 'json' },
            note,
          ],
          columns: [
            { label: 'Code', value: (s) => <Link to={`/systems/${s.id}`}>{s.code}</Link> },
            { label: 'Name', value: (s) => s.name },
            { label: 'Flavor', value: (s) => flavorCode.get(s.flavor_id) ?? '?' },
            { label: 'Active', value: (s) => (s.is_active ? 'yes' : 'no') },
            { label: 'Tags', value: (s) => (s.tags ?? []).join(', ') },
          ],
          label: (s) => s.code,
          ...sdkCalls(client.systems),
        };
        return (
          <Loaded value={systems}>
            {(p) => <EntityTable admin={admin} page={p} onPage={setPage} onChanged={reload} />}
          </Loaded>
        );
      }}
    </Loaded>
  );
}
