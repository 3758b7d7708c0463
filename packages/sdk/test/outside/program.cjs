// A CommonJS module: `require('@aide/sdk')` (Node's require of an ES module).
const sdk = require('@aide/sdk');
const exercise = require('./exercise.cjs');

exercise(sdk)
  .then(async (result) => {
    // One module instance for require and import: an error class is the same class either way.
    const imported = await import('@aide/sdk');
    const sameModule = imported.AideClient === sdk.AideClient && imported.NotFoundError === sdk.NotFoundError;
    process.stdout.write(JSON.stringify({ ...result, sameModule }));
  })
  .catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
