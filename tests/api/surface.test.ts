/**
 * The package's public surface, as users import it: the build (the unit project's globalSetup runs
 * `npm run build`) through package.json `exports`. Each entry exposes exactly the names
 * docs/api-surface.md documents, each with a stability mark, and none of the run's internals.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSurface, SURFACE_DOC, surfaceDocument, type EntrySurface } from '../../scripts/api-surface.ts';

/** Internals the index exported before issue 30: run machinery no QA test needs. */
const INTERNALS = ['resolveOptions', 'replayDisagreements', 'rejudgeDisagreement', 'writeBundleFile', 'readPrivateKey', 'readPublicKey', 'usage', 'Command'];

describe('the public surface of the package', () => {
  let surfaces: EntrySurface[];
  beforeAll(async () => {
    surfaces = await readSurface();
  });

  it('has the entries of each audience: the library, vitest, report, evidence and the CLI', () => {
    expect(surfaces.map((s) => s.entry)).toEqual(['.', './vitest', './report', './evidence', './cli']);
  });

  it('exposes exactly the names docs/api-surface.md documents (npm run api-surface -- --write after a change)', () => {
    expect(readFileSync(SURFACE_DOC, 'utf8')).toBe(surfaceDocument(surfaces));
  });

  it('marks every name of every entry stable (@public) or experimental (@beta), once', () => {
    const unmarked = surfaces.flatMap((s) => s.names.filter((n) => n.stability === undefined).map((n) => `${s.entry} ${n.name}`));
    expect(unmarked).toEqual([]);
  });

  it('declares a type for every name present at run time, and nothing at run time it does not declare', () => {
    for (const surface of surfaces) {
      const declaredValues = surface.names.filter((n) => n.kind === 'value').map((n) => n.name);
      expect(new Set(surface.runtime), surface.entry).toEqual(new Set(declaredValues));
    }
  });

  it('exports none of the internals from any entry', () => {
    const exported = surfaces.flatMap((s) => s.names.map((n) => n.name));
    expect(exported.filter((name) => INTERNALS.includes(name))).toEqual([]);
  });

  it('is described entry by entry in README "Library API", with the stability convention', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Library API'), readme.indexOf('\n## ', readme.indexOf('## Library API') + 1));
    for (const { entry } of surfaces.filter((s) => s.entry !== '.')) expect(section, entry).toContain(`\`${entry.slice(1)}\``);
    expect(section).toMatch(/`@public` is stable/);
    expect(section).toMatch(/`@beta` may change/);
  });

  it('keeps the library entry to what a QA test uses: the run, the report types, the errors', () => {
    const library = surfaces.find((s) => s.entry === '.')!;
    const names = library.names.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['runConformance', 'ConformanceOptions', 'ConformanceResult', 'ConformanceReport', 'UsageError', 'EXIT']));
    // Writing, merging and bundling reports are the advanced entries' (report, evidence).
    expect(names).not.toContain('mergeShardReports');
    expect(names).not.toContain('bundleReportFolder');
  });
});
