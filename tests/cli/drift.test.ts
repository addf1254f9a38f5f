import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import type { DriftFinding, DriftResult } from '../../src/schema/drift/drift-finding.ts';
import { buildOpenApiDocument } from '../../src/schema/openapi.ts';
import { registry } from '../../src/schema/registry.ts';
import { conformance } from './binary.ts';

const STAND_IN = path.resolve('tests/fixtures/drift/vendor-like.openapi.json');
const STAND_IN_YAML = path.resolve('tests/fixtures/drift/vendor-like-identity.openapi.yaml');

let dir: string;
let strictReport: string;
let plainReport: string;
let tightOnly: string;

/** Our own export with one restriction of an open point: a 35-character address1 (a tightening, no contradiction). */
function exportWithTightening(): unknown {
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument(registry())));
  document.components.schemas.Address.properties.address1.maxLength = 35;
  return document;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'conformance-drift-'));
  const strict = await runEmbedded({ strictServer: true, runs: 5, seed: 1 });
  const plain = await runEmbedded({ runs: 5, seed: 1 });
  strictReport = path.join(dir, 'strict.json');
  plainReport = path.join(dir, 'plain.json');
  tightOnly = path.join(dir, 'tight.json');
  await writeFile(strictReport, JSON.stringify(strict.report));
  await writeFile(plainReport, JSON.stringify(plain.report));
  await writeFile(tightOnly, JSON.stringify(exportWithTightening()));
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const json = (stdout: string) => JSON.parse(stdout) as DriftResult & { openapi: string };
const tightening = (result: DriftResult, operation: string, field: string, keyword: string): DriftFinding | undefined =>
  result.findings.find((f) => f.kind === 'tightening' && f.direction === 'request' && f.operation === operation && f.field === field && f.keyword === keyword);

describe('conformance drift', () => {
  it('exit 1 on the stand-in: its contradictions listed with both pointers, then the counts', async () => {
    const { code, stdout } = await conformance(['drift', '--openapi', STAND_IN]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /contradictions: .*\n {2}updateFiatAccount request fiat_account_owner\.person_details\.first_name \(§2\.3\): refuses a body without first_name/,
    );
    expect(stdout).toContain('      openapi #/components/schemas/MailingAddress/properties/address2/pattern: matches');
    expect(stdout).toMatch(/\n\d+ contradictions, \d+ tightenings, \d+ other differences, 0 not compared\n$/);
  });

  it('exit 0 when the OpenAPI only tightens: the tightening is listed', async () => {
    const { code, stdout } = await conformance(['drift', '--openapi', tightOnly, '--json']);
    expect(code).toBe(0);
    const result = json(stdout);
    expect(result.counts.contradiction).toBe(0);
    expect(tightening(result, 'createIdentity', 'person_details.address.address1', 'maxLength')?.theirs).toBe(
      '#/components/schemas/Address/properties/address1/maxLength',
    );
  });

  it('reads YAML and says what it could not compare', async () => {
    const { code, stdout } = await conformance(['drift', '--openapi', STAND_IN_YAML, '--markdown']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^\| kind \| operation \| field \|/);
    expect(stdout).toMatch(/\| not-compared \| createIdentity request \| `person_details\.metadata` \|.*points outside the document/);
  });

  it('--report: the strict server confirms the name, nationality and kind tightenings; the plain server does not enforce them', async () => {
    const strict = json((await conformance(['drift', '--openapi', STAND_IN, '--report', strictReport, '--json'])).stdout);
    for (const [field, keyword] of [
      ['person_details.first_name', 'pattern'],
      ['person_details.first_name', 'maxLength'],
      ['person_details.nationality', 'pattern'],
      ['person_details.cip_id_type', 'enum'],
      ['person_details.address.address1', 'maxLength'],
    ]) {
      expect(tightening(strict, 'createIdentity', field, keyword)?.observed, `${field} ${keyword}`).toBe('confirmed');
    }
    expect(tightening(strict, 'updateFiatAccount', 'fiat_network_instructions.wire.routing_details.routing_number_type', 'enum')?.observed).toBe('confirmed');
    const plain = json((await conformance(['drift', '--openapi', STAND_IN, '--report', plainReport, '--json'])).stdout);
    expect(tightening(plain, 'createIdentity', 'person_details.first_name', 'pattern')?.observed).toBe('not enforced by the target');
    expect(tightening(plain, 'createIdentity', 'person_details.first_name', 'maxLength')?.observed).toBe('not enforced by the target');
    // Contradictions are the rules' to judge: no observation on them.
    expect(plain.findings.filter((f) => f.kind === 'contradiction').every((f) => f.observed === undefined)).toBe(true);
    // Without a report, nothing is observed.
    const bare = json((await conformance(['drift', '--openapi', STAND_IN, '--json'])).stdout);
    expect(bare.findings.some((f) => f.observed !== undefined)).toBe(false);
  });

  it.each([
    [['drift'], /give the OpenAPI document/],
    [['drift', '--openapi', '/nonexistent/openapi.yaml'], /cannot read \/nonexistent\/openapi\.yaml/],
    [['drift', '--openapi', path.resolve('package.json')], /not an OpenAPI 3\.0 or 3\.1 document/],
    [['drift', '--openapi', STAND_IN, '--json', '--markdown'], /--json or --markdown, not both/],
    [['drift', '--openapi', STAND_IN, '--report', STAND_IN], /is not a valid conformance\.json report/],
    [['drift', '--unknown'], /run `conformance drift --help`/],
  ])('exit 2, one line: %j', async (args, message) => {
    const { code, stdout, stderr } = await conformance(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('--help says what each kind means and the exit codes', async () => {
    const { code, stdout } = await conformance(['drift', '--help']);
    expect(code).toBe(0);
    for (const word of ['contradiction', 'tightening', 'not compared', '--report', 'Exit 1']) expect(stdout).toContain(word);
  });
});
