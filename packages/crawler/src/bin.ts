#!/usr/bin/env node
// The `aide-crawler` executable: the only place that ends the process.
import { processIo } from './io.js';
import { main } from './program.js';

const code = await main(process.argv.slice(2), processIo);
// Let stdout drain (a large JSON document into a pipe) before exiting.
process.stdout.write('', () => process.exit(code));
