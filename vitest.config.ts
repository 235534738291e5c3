import { defineConfig } from 'vitest/config';

// Unit tests only; the browser tests in e2e/ run with `npx playwright test`.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
  },
});
