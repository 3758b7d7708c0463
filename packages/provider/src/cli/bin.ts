#!/usr/bin/env node
// The `aide-provider` executable: the only place that ends the process.
import { main } from './program.js';

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
// Let stdout drain (a large document into a pipe) before exiting.
process.stdout.write('', () => process.exit(code));
