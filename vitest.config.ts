import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          // Builds dist/ first: the tests that spawn bin/conformance.js must run the current sources.
          // Then notes the tree, to fail a run that leaves files in it.
          globalSetup: ['tests/setup/build-dist.ts', 'tests/setup/tree-left-clean.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // vitest's default is one worker less than the CPUs: one on a 2-CPU runner, every file in
          // turn. Many files spend their time waiting (child processes, sockets, a target's
          // timeouts, the interrupt grace), not computing: two files at a time at least.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        // The suites import the package by its name, as a user's tests do: here, its sources (each
        // entry before the library's: an alias matches the names it prefixes).
        resolve: {
          alias: {
            'fiat-identity-conformance/vitest': fileURLToPath(new URL('./src/api/vitest.ts', import.meta.url)),
            'fiat-identity-conformance/report': fileURLToPath(new URL('./src/api/report.ts', import.meta.url)),
            'fiat-identity-conformance/evidence': fileURLToPath(new URL('./src/api/evidence.ts', import.meta.url)),
            'fiat-identity-conformance': fileURLToPath(new URL('./src/api/index.ts', import.meta.url)),
          },
        },
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
