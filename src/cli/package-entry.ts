/**
 * The package entry `fiat-identity-conformance/cli`: the command line as a function, for a script
 * that runs `conformance` in its own process: `await main(['run', '--profile', 'quick'])` returns
 * the exit code. It lives in src/cli, the layer it exposes (src/api sits below the CLI). Stability
 * marks as in the library entry: `@public` stable, `@beta` may change in a minor version.
 */
export {
  /** @public */
  main,
} from './main.ts';
export type {
  /** @beta */
  CliIO,
} from './io.ts';
