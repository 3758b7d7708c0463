// @aide/sdk's configuration (ts-jest in ESM mode, one real backend for the run): `<rootDir>` is this
// package, so the global setup and teardown are test/global-setup.mjs and test/global-teardown.mjs here,
// which build on the SDK's.
import sdkConfig from '../sdk/jest.config.js';

/** @type {import('jest').Config} */
export default sdkConfig;
