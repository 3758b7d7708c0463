// The "bare" baseline of `pnpm bench lineage --only intake`: the least a durable OpenLineage intake
// must do with an event — parse HTTP, check that a bearer key is sent, parse the JSON body, and store
// it with one INSERT (a named statement, through a pg Pool of the API's size), then answer 201. No
// framework, no validation, no matching, no links, no runs. What an accept-and-queue intake would
// cost at the least: the intake / bare ratio shows what applying an event costs beyond taking it, and
// the bare rate is the most these clients can send to any server on this machine.
//
// Environment: DATABASE_URL, PORT (0: any), AIDE_DB_POOL_SIZE (default 20). Prints "listening <port>"
// on stdout once ready; the table `bench_bare_events` is created if missing.
import pg from 'pg';
import { send, serveBare } from './bare-http.mjs';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.AIDE_DB_POOL_SIZE ?? 20),
  application_name: 'aide-bench-bare-intake',
});
pool.on('error', (error) => process.stderr.write(`pool error: ${error.message}\n`));
await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_bare_events (id bigserial PRIMARY KEY, event jsonb NOT NULL)',
);

const INSERT = { name: 'bare_insert_event', text: 'INSERT INTO bench_bare_events (event) VALUES ($1)' };

async function handle(req, res) {
  if (req.method !== 'POST' || req.url !== '/api/v1/lineage') return send(res, 404, { code: 'NOT_FOUND' });
  if (!/^Bearer\s+\S+\s*$/i.test(req.headers.authorization ?? ''))
    return send(res, 401, { code: 'UNAUTHORIZED' });
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let event;
  try {
    event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(res, 400, { code: 'MALFORMED_JSON' });
  }
  await pool.query({ ...INSERT, values: [event] });
  return send(res, 201, { stored: true });
}

serveBare(handle, pool);
