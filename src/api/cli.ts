/**
 * `fiat-identity-conformance/cli`: the command line as a function, for a script that runs
 * `conformance` in its own process: `await main(['run', '--profile', 'quick'])` returns the exit
 * code. Stability marks as in the library entry: `@public` stable, `@beta` may change in a minor version.
 */
export {
  /** @public */
  main,
} from '../cli/main.ts';
export type {
  /** @beta */
  CliIO,
} from '../cli/io.ts';
