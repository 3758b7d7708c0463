// What differs between a stored connection profile and a document's connection, in the document's
// terms: the configure with its secret fields in their places (their values are secret names), and
// `secrets_ref` rebuilt from the profile's credential references in their order.
import type { DataCoolieImportChange } from '@aide/schemas';
import type { ImportProfileRow } from './datacoolie-import.repository.js';
import type { DocumentConnection } from './import-document.js';
import { fieldChange, objectChanges } from './plan-changes.js';

/** A secret field of a connection: the configure field and the credential reference naming it. */
export interface SecretField {
  configure_field: string;
  provider: string;
  path: string;
}

/** The document view of a stored profile: its configure with the secret fields back in their places. */
export function storedConfigure(profile: ImportProfileRow): Record<string, unknown> {
  const secrets = new Map(profile.secrets.map((s) => [s.configure_field, s.path]));
  const keys = profile.configure_keys ?? [...Object.keys(profile.configure), ...secrets.keys()];
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = secrets.has(key) ? secrets.get(key) : profile.configure[key];
  for (const [key, value] of Object.entries(profile.configure)) if (!(key in out)) out[key] = value;
  return out;
}

export function secretsRefOf(secrets: readonly { configure_field: string; provider: string }[]) {
  const out: Record<string, string[]> = {};
  for (const s of secrets) (out[s.provider] ??= []).push(s.configure_field);
  return Object.keys(out).length === 0 ? null : out;
}

/** Every field a document changes on a stored profile. */
export function profileChanges(
  current: ImportProfileRow,
  doc: DocumentConnection,
  secrets: readonly SecretField[],
  useSchemaHint: boolean,
): DataCoolieImportChange[] {
  const { built, written: w } = doc;
  return [
    ...fieldChange('name', current.name, built.name),
    ...fieldChange('description', current.description, w.description ?? null),
    ...fieldChange('connection_type', current.connection_type, built.connection_type),
    ...fieldChange('format', current.format, built.format),
    ...fieldChange('catalog', current.catalog, built.catalog),
    ...fieldChange('database', current.database, built.database),
    ...objectChanges('configure', storedConfigure(current), w.configure),
    ...fieldChange('secrets_ref', secretsRefOf(current.secrets), secretsRefOf(secrets)),
    ...fieldChange('use_schema_hint', current.use_schema_hint, useSchemaHint),
    ...fieldChange('is_active', current.is_active, built.is_active),
    ...fieldChange('as_written', current.as_written, true),
  ];
}
