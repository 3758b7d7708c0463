import { contract } from '@aide/schemas';
import { ConflictError } from '@aide/sdk';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorMessage } from '../../src/components/common';
import { buildBody, type FieldSpec } from '../../src/components/EntityEditor';
import { paramsOf, paramSpecs, paramsValidator } from '../../src/components/RenderPreview';
import { parseRoute } from '../../src/router';
import { can } from '../../src/session';

describe('can', () => {
  it('follows the auth the contract declares for each route', () => {
    const user = { is_superuser: false };
    const superuser = { is_superuser: true };
    expect(can(user, contract.systemFlavors.update)).toBe(false);
    expect(can(superuser, contract.systemFlavors.update)).toBe(true);
    expect(can(user, contract.systems.update)).toBe(true);
    expect(can(user, contract.systems.delete)).toBe(false);
    expect(can(user, contract.fieldClassifications.create)).toBe(true);
    expect(can(superuser, undefined)).toBe(false);
  });
});

describe('buildBody', () => {
  const fields: FieldSpec[] = [
    { key: 'code', label: 'Code', kind: 'text' },
    { key: 'vendor', label: 'Vendor', kind: 'text' },
    { key: 'versions', label: 'Versions', kind: 'list' },
    { key: 'extra', label: 'Extra', kind: 'json' },
    { key: 'is_active', label: 'Active', kind: 'bool' },
  ];

  it('creates with the filled fields only', () => {
    const { body, errors } = buildBody(
      fields,
      { code: 'pg', vendor: ' ', versions: '14, 15,', extra: '{"a": 1}', is_active: true },
      null,
    );
    expect(errors).toEqual({});
    expect(body).toEqual({ code: 'pg', versions: ['14', '15'], extra: { a: 1 }, is_active: true });
  });

  it('updates only what changed, clearing an emptied field with null', () => {
    const initial = { code: 'pg', vendor: 'PGDG', versions: '14', extra: '', is_active: true };
    const { body } = buildBody(fields, { ...initial, vendor: '', versions: '14, 15' }, initial);
    expect(body).toEqual({ vendor: null, versions: ['14', '15'] });
  });

  it('reports JSON that does not parse against its field', () => {
    const { errors } = buildBody(fields, { code: 'x', extra: '{' }, null);
    expect(Object.keys(errors)).toEqual(['extra']);
    expect(errors['extra']).toMatch(/^not valid JSON/);
  });
});

describe('render preview params', () => {
  const schema = {
    type: 'object',
    properties: {
      precision: { type: 'integer', minimum: 1, maximum: 38, description: 'digits' },
      unit: { type: 'string', enum: ['s', 'ms'] },
    },
    required: ['precision'],
  };

  it('offers one input per property and builds typed params', () => {
    const specs = paramSpecs(schema);
    expect(specs.map((s) => [s.name, s.type, s.required])).toEqual([
      ['precision', 'integer', true],
      ['unit', 'string', false],
    ]);
    expect(paramsOf(specs, { precision: '12', unit: '' })).toEqual({ precision: 12 });
  });

  it('validates against the params JSON schema', () => {
    const validator = paramsValidator(schema);
    expect(validator?.safeParse({ precision: 12, unit: 'ms' }).success).toBe(true);
    expect(validator?.safeParse({ precision: 0 }).success).toBe(false);
    expect(validator?.safeParse({ unit: 's' }).success).toBe(false);
    expect(validator?.safeParse({ precision: 2, unit: 'h' }).success).toBe(false);
  });
});

describe('ErrorMessage', () => {
  it('shows the envelope: code, detail, issues, what to do and the request id', () => {
    const error = new ConflictError({
      status: 409,
      errorCode: 'VERSION_CONFLICT',
      detail: 'row_version 3 is not the current 4',
      requestId: 'req-1',
      details: { issues: [{ path: ['vendor'], message: 'too long' }] },
      headers: {},
      route: 'PATCH /api/v1/system-flavors/x',
    });
    const { container, getByRole } = render(<ErrorMessage error={error} onReload={() => undefined} />);
    const text = container.textContent ?? '';
    expect(text).toContain('VERSION_CONFLICT (409): row_version 3 is not the current 4');
    expect(text).toContain('vendor too long');
    expect(text).toContain('Reload it to see their change');
    expect(text).toContain('Request req-1');
    expect(getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});

describe('parseRoute of the reference pages', () => {
  it.each([
    ['/ui/reference', { page: 'reference', section: 'kinds' }],
    ['/ui/reference/casts', { page: 'reference', section: 'casts' }],
    ['/ui/reference/nope', { page: 'not-found' }],
  ])('%s', (path, route) => {
    expect(parseRoute(path)).toEqual(route);
  });
});
