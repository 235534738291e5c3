import { defineConfig } from 'vitest/config';
import { coreAlias } from './vite.config.ts';

// Unit tests only; the browser tests in e2e/ run with `npx playwright test`.
export default defineConfig({
  // The playground's modules import the core as `@ctxprune/core/…` sources, as in its build.
  resolve: { alias: coreAlias },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
  },
});
