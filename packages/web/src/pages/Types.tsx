import { useState } from 'react';
import { Loaded } from '../components/common';
import { useSession } from '../session';
import { useAsync } from '../use-async';

/** The data types of a flavor, with each one's params schema and render template. */
export function Types() {
  const { client } = useSession();
  const [flavors] = useAsync(() => client.systemFlavors.list({ size: 100, sort: 'code' }), [client]);
  const [flavorId, setFlavorId] = useState<string | null>(null);
  const chosen = flavorId ?? (flavors.state === 'done' ? (flavors.value.items[0]?.id ?? null) : null);
  const [types] = useAsync(
    async () =>
      chosen
        ? (await client.dataTypes.list({ system_flavor_id: chosen, size: 100, sort: 'code' })).items
        : [],
    [chosen, client],
  );
  return (
    <section>
      <h1>Type catalogue</h1>
      <Loaded value={flavors}>
        {(f) => (
          <label>
            Flavor{' '}
            <select value={chosen ?? ''} onChange={(e) => setFlavorId(e.target.value)}>
              {f.items.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.code} — {x.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </Loaded>
      <Loaded value={types}>
        {(items) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Render template</th>
                <th scope="col">Parameters</th>
              </tr>
            </thead>
            <tbody>
              {items.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.code}</th>
                  <td>
                    <code>{t.render_template ?? t.code}</code>
                  </td>
                  <td>
                    {Object.keys(
                      (t.params_schema['properties'] as Record<string, unknown> | undefined) ?? {},
                    ).join(', ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </section>
  );
}
