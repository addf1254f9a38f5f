import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const TOOL_NAME = 'conformance';
export const TOOL_VERSION: string = pkg.version;
/** The npm package the tool ships in: what a package URL (`pkg:npm/…`) names. */
export const PACKAGE_NAME: string = pkg.name;
export const USER_AGENT = `${TOOL_NAME}/${TOOL_VERSION} (${pkg.name}; node ${process.versions.node})`;
