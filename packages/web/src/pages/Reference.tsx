import {
  CAST_SAFETIES,
  contract,
  CreateCastRuleSchema,
  CreateSystemFlavorSchema,
  CreateSystemKindSchema,
  CreateSystemSchema,
  UpdateCastRuleSchema,
  UpdateSystemFlavorSchema,
  UpdateSystemKindSchema,
  UpdateSystemSchema,
} from '@aide/schemas';
import type { AideClient, CastRule, System, SystemFlavor, SystemKind } from '@aide/sdk';
import { useState } from 'react';
import { Loaded } from '../components/common';
import { type EntityAdmin, EntityTable, sdkCalls } from '../components/EntityEditor';
import { Link, type ReferenceSection } from '../router';
import { useSession } from '../session';
import { TypeCatalogue } from './Types';
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
  const [page, setPage] = useState(1);
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
  const [page, setPage] = useState(1);
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

function CastRules() {
  const { client } = useSession();
  const [page, setPage] = useState(1);
  const [data, reload] = useAsync(async () => {
    const [rules, types, flavors] = await Promise.all([
      client.castRules.list({ page, size: SIZE, sort: 'created_at' }),
      all((n) => client.dataTypes.list({ page: n, size: 100, sort: 'code' })),
      all((n) => client.systemFlavors.list({ page: n, size: 100, sort: 'code' })),
    ]);
    const flavorCode = new Map(flavors.map((f) => [f.id, f.code]));
    const options = types
      .map((t) => ({ value: t.id, label: `${flavorCode.get(t.system_flavor_id) ?? '?'}.${t.code}` }))
      .sort((a, b) => a.label.localeCompare(b.label));
    return { rules, options };
  }, [page, client]);
  return (
    <Loaded value={data}>
      {({ rules, options }) => {
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
}

function Systems() {
  const { client } = useSession();
  const [flavors] = useFlavorOptions(client);
  const [page, setPage] = useState(1);
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
            { key: 'flavor_id', label: 'Flavor', kind: 'select', options },
            { key: 'is_active', label: 'Active', kind: 'bool' },
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
