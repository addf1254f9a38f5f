/**
 * What the CI templates and README tell a user to install is what a user can install (issue 31,
 * point 6): the package is not on the registry, so no install line names it with a version; the
 * GitLab job installs the tarball `npm pack` writes for package.json's name and version, and runs
 * the command package.json declares through `npx --package`, never a bare `npx conformance` (which
 * outside a project fetches the registry's unrelated package of that name).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = path.resolve(import.meta.dirname, '../..');
const text = (file: string) => readFileSync(path.join(repo, file), 'utf8');
const pkg = JSON.parse(text('package.json')) as { name: string; version: string; bin: Record<string, string> };
/** The file `npm pack` writes: a scope's @ dropped and its / turned into -. */
const TARBALL = `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
const [COMMAND] = Object.keys(pkg.bin);

describe('install lines', () => {
  it('the GitLab job installs the packed tarball of this version and runs its command by --package', () => {
    const job = (parse(text('examples/ci/gitlab-ci.yml')) as { conformance: { variables: Record<string, string>; script: string[] } }).conformance;
    expect(path.basename(job.variables.HARNESS_PACKAGE)).toBe(TARBALL);
    expect(job.script).toContain(`npx --yes --package "$HARNESS_PACKAGE" ${COMMAND} run`);
  });

  it("docs/sharding.md's workflow installs the same tarball and never runs a bare npx conformance", () => {
    const sharding = text('docs/sharding.md');
    const workflow = /```yaml\n([\s\S]*?)```/.exec(sharding)?.[1] ?? '';
    const parsed = parse(workflow) as { env: Record<string, string> };
    expect(path.basename(parsed.env.HARNESS_PACKAGE)).toBe(TARBALL);
    const runs = [...workflow.matchAll(/npx\b[^\n]*/g)].map((m) => m[0]);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run).toMatch(new RegExp(`^npx --yes --package "\\$HARNESS_PACKAGE" ${COMMAND} `));
  });

  it('no template, action or README line installs the package from the registry at a version', () => {
    for (const file of ['examples/ci/gitlab-ci.yml', 'examples/ci/github-workflow.yml', 'action.yml', 'README.md', 'docs/sharding.md']) {
      expect(text(file), file).not.toMatch(new RegExp(`(?<![\\w/-])${pkg.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}@\\d`));
    }
  });

  it("README's tarball and outside-the-project lines name this version's tarball and the command after -p", () => {
    const readme = text('README.md');
    const tarballs = [...readme.matchAll(/[\w@./-]+\.tgz/g)].map((m) => path.basename(m[0]));
    expect(tarballs.length).toBeGreaterThan(0);
    expect(new Set(tarballs)).toEqual(new Set([TARBALL]));
    expect(readme).toContain(`npx -p ./${TARBALL} ${COMMAND} run`);
    expect(readme).toMatch(new RegExp(`npm exec --package=\\S+ -- ${COMMAND} run`));
  });
});
