import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.suite.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Suites share one target and one run; run them one file at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
