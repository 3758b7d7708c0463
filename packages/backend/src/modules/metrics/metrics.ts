import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per application instance (tests start several apps in one process). */
export interface AppMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
}

/**
 * The registry `/metrics` serves. `collect` is false when `/metrics` does not exist (no
 * AIDE_METRICS_TOKEN): then nothing is collected, neither the process metrics (their GC and event-loop
 * observers) nor the request histogram (see `createApp`), as nobody could read them.
 */
export function createMetrics(collect: boolean): AppMetrics {
  const registry = new Registry();
  if (collect) collectDefaultMetrics({ register: registry, prefix: 'aide_' });
  const requestDuration = new Histogram({
    name: 'aide_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    // Latency targets are in the tens of milliseconds.
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return { registry, requestDuration };
}

type RequestLabels = Record<'method' | 'route' | 'status', string>;

/**
 * Observes the duration of the requests of one route pattern (`'unmatched'` for requests no route
 * matched): the pattern, not the URL, so that label cardinality stays bounded. The label objects are
 * made once per method and status, not per request.
 */
export function routeDurationObserver(
  histogram: AppMetrics['requestDuration'],
  route: string,
): (method: string, status: number, seconds: number) => void {
  const labels = new Map<string, RequestLabels[]>();
  return (method, status, seconds) => {
    let byStatus = labels.get(method);
    if (byStatus === undefined) labels.set(method, (byStatus = []));
    const set = (byStatus[status] ??= { method, route, status: String(status) });
    histogram.observe(set, seconds);
  };
}
