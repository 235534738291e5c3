/**
 * Browser tests for the playground: Debian's chromium (no browser download) against
 * `vite preview` of a production build. Run from the repository root: `npx playwright test`.
 */
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BASE_FLAGS = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PORT = 4173;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'off',
  },
  projects: [
    {
      // Everything, including the engine comparison without a WebGPU flag (WebGPU falls back, visibly).
      name: 'chromium',
      use: { launchOptions: { executablePath: CHROMIUM, args: BASE_FLAGS } },
    },
    {
      // The WebGPU path: SwiftShader's adapter here (software), enough to exercise it.
      name: 'chromium-webgpu',
      testMatch: '**/engines.spec.ts',
      use: { launchOptions: { executablePath: CHROMIUM, args: [...BASE_FLAGS, '--enable-unsafe-webgpu'] } },
    },
  ],
  webServer: {
    command: `npx vite build && npx vite preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}`,
    timeout: 300_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
