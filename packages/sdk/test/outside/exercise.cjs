// What the consumer programs do with the SDK module they loaded (by `import` or by `require`): log in,
// read, and meet a typed error. CommonJS, so that ES modules and CommonJS programs can both load it.
module.exports = async function exercise({ AideClient, NotFoundError, VERSION }) {
  const client = new AideClient({
    baseUrl: process.env.AIDE_SDK_TEST_BASE_URL,
    username: process.env.AIDE_SDK_TEST_USERNAME,
    password: process.env.AIDE_SDK_TEST_PASSWORD,
  });
  try {
    const me = await client.users.me();
    const kinds = await client.systemKinds.list({ size: 1 });
    let notFound = false;
    try {
      await client.systems.get('00000000-0000-4000-8000-00000000dead');
    } catch (error) {
      notFound = error instanceof NotFoundError && error.errorCode === 'SYSTEM_NOT_FOUND';
    }
    return { email: me.email, total: kinds.total, notFound, version: VERSION };
  } finally {
    await client.close();
  }
};
