import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per application instance (tests start several apps in one process). */
export interface AppMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
}

export function createMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'aide_' });
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
