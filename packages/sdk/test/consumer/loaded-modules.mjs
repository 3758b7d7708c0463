// Prints, as JSON, the URL of every module a cold `import('@aide/sdk')` resolves (by name: package
// self-reference to the built dist/). A resolve hook on the loader thread reports each one through a port.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;
const SENTINEL = 'data:text/javascript,export{}';

const { port1, port2 } = new MessageChannel();
const urls = [];
const done = new Promise((resolve) => {
  port1.on('message', (url) => {
    // Messages arrive in order: once the sentinel's arrives, every earlier one has.
    if (url === SENTINEL) resolve();
    else urls.push(url);
  });
});
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { port: port2 },
  transferList: [port2],
});
await import('@aide/sdk');
await import(SENTINEL);
await done;
port1.close();
process.stdout.write(JSON.stringify(urls));
