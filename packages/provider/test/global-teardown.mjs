// Stops what test/global-setup.mjs started (through @aide/sdk's global setup).
export { default } from '../../sdk/test/global-teardown.mjs';
