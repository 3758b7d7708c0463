import { contract, CreateDataTypeSchema, UpdateDataTypeSchema } from '@aide/schemas';
import type { AideClient, DataType } from '@aide/sdk';
import { useState } from 'react';
import { Loaded } from '../components/common';
import { type EntityAdmin, EntityTable, sdkCalls } from '../components/EntityEditor';
import { RenderPreview } from '../components/RenderPreview';
import { useSession } from '../session';
import { useUrlPage, useUrlParam } from '../url-state';
import { useAsync } from '../use-async';

type Option = { value: string; label: string };

// A flavor has tens of types (postgres14: 52): one page shows them all.
const SIZE = 100;

export function dataTypeAdmin(
  client: AideClient,
  flavors: readonly Option[],
  flavorId?: string,
): EntityAdmin<DataType> {
  const flavorCode = new Map(flavors.map((f) => [f.value, f.label]));
  return {
    singular: 'data type',
    routes: contract.dataTypes,
    createSchema: CreateDataTypeSchema,
    updateSchema: UpdateDataTypeSchema,
    fields: [
      {
        key: 'system_flavor_id',
        label: 'Flavor',
        kind: 'select',
        options: flavors,
        ...(flavorId ? { initial: flavorId } : {}),
      },
      { key: 'code', label: 'Code', kind: 'text' },
      {
        key: 'params_schema',
        label: 'Params schema (JSON)',
        kind: 'json',
        initial: '{\n  "type": "object",\n  "properties": {}\n}',
        hint: 'A JSON Schema object, e.g. {"type":"object","properties":{"length":{"type":"integer","minimum":1}}}',
      },
      {
        key: 'render_template',
        label: 'Render template',
        kind: 'text',
        hint: 'Jinja2, e.g. varchar{% if length is defined %}({{ length }}){% endif %}',
      },
      { key: 'description', label: 'Description', kind: 'textarea' },
      { key: 'note', label: 'Note', kind: 'textarea' },
    ],
    columns: [
      { label: 'Code', value: (t) => t.code },
      { label: 'Flavor', value: (t) => flavorCode.get(t.system_flavor_id) ?? '?' },
      { label: 'Render template', value: (t) => <code>{t.render_template ?? t.code}</code> },
      { label: 'Parameters', value: (t) => paramNames(t).join(', ') || '—' },
    ],
    label: (t) => t.code,
    ...sdkCalls(client.dataTypes),
  };
}

export const paramNames = (t: DataType) =>
  Object.keys((t.params_schema['properties'] as Record<string, unknown> | undefined) ?? {});

/**
 * The data types of a flavor with each one's params and render template, a live render preview, and
 * (for superusers) create, edit and delete.
 */
export function TypeCatalogue() {
  const { client } = useSession();
  const [flavors] = useAsync(
    async () =>
      (await client.systemFlavors.list({ size: 100, sort: 'code' })).items.map((f) => ({
        value: f.id,
        label: f.code,
      })),
    [client],
  );
  const [flavorParam, setFlavorId] = useUrlParam('flavor', '');
  const flavorId = flavorParam || null;
  const [page, setPage] = useUrlPage();
  const [preview, setPreview] = useState<DataType | null>(null);
  const chosen = flavorId ?? (flavors.state === 'done' ? (flavors.value[0]?.value ?? null) : null);
  const [types, reload] = useAsync(
    async () =>
      chosen ? client.dataTypes.list({ system_flavor_id: chosen, page, size: SIZE, sort: 'code' }) : null,
    [chosen, page, client],
  );
  return (
    <Loaded value={flavors}>
      {(options) => (
        <>
          <label>
            Flavor{' '}
            <select
              value={chosen ?? ''}
              onChange={(e) => {
                setFlavorId(e.target.value);
                setPage(1);
                setPreview(null);
              }}
            >
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          {preview && <RenderPreview type={preview} key={preview.id} onClose={() => setPreview(null)} />}
          <Loaded value={types}>
            {(p) =>
              p && (
                <EntityTable
                  admin={dataTypeAdmin(client, options, chosen ?? undefined)}
                  page={p}
                  onPage={setPage}
                  onChanged={reload}
                  extra={(t) => (
                    <button type="button" className="link" onClick={() => setPreview(t)}>
                      Preview<span className="visually-hidden"> {t.code}</span>
                    </button>
                  )}
                />
              )
            }
          </Loaded>
        </>
      )}
    </Loaded>
  );
}

export function Types() {
  return (
    <section>
      <h1>Type catalogue</h1>
      {/* As under Reference data: the preview's heading (h3) comes after an h2. */}
      <h2>Data types by flavor</h2>
      <TypeCatalogue />
    </section>
  );
}
