// The load generator of `pnpm bench api`, in a process of its own: autocannon run for one slice
// against one URL, the result printed as one JSON line on stdout. Running it outside the bench's own
// process keeps its CPU (accounted separately) and its event loop apart from the orchestration, and
// lets the bench place it on a CPU of its choosing (taskset), away from the server under test.
//
//   node bench/load.mjs '{"url": "...", "connections": 32, "duration": 2, "headers": {...}, "exact": true}'
//
// With "exact", every 2xx response time is reported (ms, sub-millisecond), for percentiles over all
// slices of a run.
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}');
const latencies = [];
const cpuBefore = process.cpuUsage(); // after start-up and imports: only the run is accounted
const instance = autocannon(
  {
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    headers: options.headers,
    timeout: options.timeout ?? 10,
  },
  (error, result) => {
    if (error) {
      process.stderr.write(`autocannon: ${error.message}\n`);
      process.exit(1);
    }
    const summary = {
      duration: result.duration,
      requests: result.requests.total,
      ok: result['2xx'],
      non2xx: result.non2xx,
      statuses: result.statusCodeStats,
      errors: result.errors,
      timeouts: result.timeouts,
      p99: result.latency.p99,
      cpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpuBefore)),
      latencies: options.exact ? latencies : [],
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(0));
  },
);
if (options.exact) {
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(Math.round(ms * 1000) / 1000);
  });
}
process.on('SIGTERM', () => instance.stop());
