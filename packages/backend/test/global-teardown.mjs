export default async function globalTeardown() {
  const embedded = globalThis.__AIDE_EMBEDDED_PG__;
  if (embedded) await embedded.stop();
}
