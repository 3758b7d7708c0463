import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress';

// Built into dist/ and served by the backend at /ui (packages/backend/src/web-ui.ts): assets get
// content hashes, so the backend can cache them for a year; every text file gets precompressed
// `.gz`/`.br` copies (scripts/precompress.ts) that the backend sends to clients accepting them.
export default defineConfig({
  base: '/ui/',
  plugins: [react(), precompress()],
  resolve: {
    // @aide/sdk imports undici for its Node transport; the UI always passes `fetch`, so the Agent is
    // never constructed and a stub keeps undici out of the bundle.
    alias: { undici: fileURLToPath(new URL('./src/undici-stub.ts', import.meta.url)) },
  },
  // The SDK names the Node version in its User-Agent (which browsers do not send anyway).
  define: { 'process.version': JSON.stringify('browser') },
  build: { outDir: 'dist', sourcemap: false, target: 'es2022' },
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: ['test/unit/**/*.test.tsx', 'test/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // `pnpm bench:pages` only (not part of `pnpm test`): page times against 10,000 datasets.
        extends: true,
        test: {
          name: 'pages',
          environment: 'node',
          include: ['test/bench/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 1_800_000,
          hookTimeout: 1_800_000,
        },
      },
    ],
  },
});
