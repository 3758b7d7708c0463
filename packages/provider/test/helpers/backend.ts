// The backend test/global-setup.mjs started (@aide/sdk's global setup), as the provider's tests reach it.
import { AideClient } from '@aide/sdk';

function variable(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (test/global-setup.mjs)`);
  return value;
}

/** Its URL and the run's superuser. */
export const backend = {
  get baseUrl(): string {
    return variable('AIDE_SDK_TEST_BASE_URL');
  },
  get username(): string {
    return variable('AIDE_SDK_TEST_USERNAME');
  },
  get password(): string {
    return variable('AIDE_SDK_TEST_PASSWORD');
  },
};

/** A client logged in as the run's superuser. */
export function adminClient(): AideClient {
  return new AideClient({ baseUrl: backend.baseUrl, username: backend.username, password: backend.password });
}
