// The "bare" baseline of `pnpm bench api`: the least a Node server must do to answer
// GET /api/v1/systems/{id} the way the API does — parse HTTP, verify the HS256 bearer token with
// jose (same secret, same checks as TokenService), read the active row with one SELECT through a pg
// Pool of the API's size, and serialise it to JSON. No framework, no ORM, no user-row round trip.
// It is written the way a careful hand-made handler would be (key imported once, named statement),
// so that the API / bare ratio shows everything the API spends beyond that minimum.
//
// With BARE_USER_ROW=1 it also reads the caller's user row (is_active, token_version) first, as the
// API's guard does on every request: the same two round trips, so the difference to the API is the
// framework and ORM alone.
//
// Environment: DATABASE_URL, AIDE_JWT_SECRET, PORT, AIDE_DB_POOL_SIZE (default 20), BARE_USER_ROW.
// Prints "listening <port>" on stdout once ready.
import { jwtVerify } from 'jose';
import pg from 'pg';
import { send, serveBare } from './bare-http.mjs';

// The HMAC key is imported once (jose re-imports a raw Uint8Array secret on every verify).
const key = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(process.env.AIDE_JWT_SECRET ?? ''),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.AIDE_DB_POOL_SIZE ?? 20),
  application_name: 'aide-bench-bare',
});
pool.on('error', (error) => process.stderr.write(`pool error: ${error.message}\n`));

const PREFIX = '/api/v1/systems/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A named statement: parsed and planned once per connection, as any hand-written fast handler would.
const USER_ROW = process.env.BARE_USER_ROW === '1';
const SELECT_USER = {
  name: 'bare_get_user',
  text: 'SELECT is_active, is_superuser, token_version FROM users WHERE id = $1',
};
const SELECT = {
  name: 'bare_get_system',
  text:
    'SELECT id, created_at, updated_at, created_by, updated_by, note, row_version, deleted_at, ' +
    'code, name, is_active, tags, extra, flavor_id, credential_ref_id ' +
    'FROM systems WHERE id = $1 AND deleted_at IS NULL',
};

async function handle(req, res) {
  if (req.url === '/health') return send(res, 200, { status: 'ok' });
  if (req.method !== 'GET' || !req.url.startsWith(PREFIX)) return send(res, 404, { code: 'NOT_FOUND' });
  const id = req.url.slice(PREFIX.length);
  if (!UUID.test(id)) return send(res, 422, { code: 'VALIDATION_ERROR' });

  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return send(res, 401, { code: 'UNAUTHORIZED' });
  let claims;
  try {
    const { payload } = await jwtVerify(match[1], key, {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (payload.typ !== 'access' || typeof payload.tv !== 'number' || typeof payload.sub !== 'string') {
      return send(res, 401, { code: 'UNAUTHORIZED' });
    }
    claims = payload;
  } catch {
    return send(res, 401, { code: 'UNAUTHORIZED' });
  }
  if (USER_ROW) {
    const { rows: users } = await pool.query({ ...SELECT_USER, values: [claims.sub] });
    if (!users[0]?.is_active || users[0].token_version !== claims.tv)
      return send(res, 401, { code: 'UNAUTHORIZED' });
  }

  const { rows } = await pool.query({ ...SELECT, values: [id.toLowerCase()] });
  const row = rows[0];
  if (!row) return send(res, 404, { code: 'SYSTEM_NOT_FOUND' });
  res.setHeader('etag', `"${row.row_version}"`);
  return send(res, 200, row);
}

serveBare(handle, pool);
