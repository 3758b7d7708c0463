#!/usr/bin/env node
// The `aide-crawler` executable: the only place that ends the process. SIGINT and SIGTERM abort the
// command's signal (it stops, records its crawl run as failed and closes its connections) and the
// process exits with 130 or 143; a second signal ends the process at once (the default handler). The
// first is acknowledged at once on stderr: stopping may wait for a registry write in flight.
import { InterruptedError, type InterruptSignal } from './errors.js';
import { processIo } from './io.js';
import { main } from './program.js';

const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const satisfies readonly InterruptSignal[]) {
  process.once(signal, () => {
    interrupt.abort(new InterruptedError(signal));
    process.stderr.write(`aide-crawler: ${signal} received, stopping (send it again to stop at once)\n`);
  });
}

const code = await main(process.argv.slice(2), { ...processIo, signal: interrupt.signal });
// Let stdout drain (a large JSON document into a pipe) before exiting.
process.stdout.write('', () => process.exit(code));
