// A consumer's program: plain Node, the built package imported by its name (package self-reference).
import { AideClient, NotFoundError } from '@aide/sdk';

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
  process.stdout.write(JSON.stringify({ email: me.email, total: kinds.total, notFound }));
} finally {
  await client.close();
}
