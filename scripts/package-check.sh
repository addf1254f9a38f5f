#!/usr/bin/env bash
# The package as users get it: pack it, check what the tarball holds, install it into an empty
# project beside vitest, then run `npx conformance run` against the embedded server (exit 0),
# import the library and its report, evidence and cli entries from plain Node (and catch its
# exported UsageError), type-check a TypeScript consumer against its declarations, and run a
# five-line vitest file that judges one rule. Any step that fails ends the check non-zero.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
step() { printf '\npackage-check: %s\n' "$*"; }

step "npm pack"
cd "$repo"
tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"
tar -tzf "$tarball" | sed 's|^package/||' | sort > "$work/contents"
echo "$(wc -l < "$work/contents") files, $(du -k "$tarball" | cut -f1) kB"
for needed in bin/conformance.js dist/cli/main.js dist/api/index.js dist/api/index.d.ts dist/api/vitest.js dist/api/vitest.d.ts dist/api/report.js dist/api/report.d.ts dist/api/evidence.js dist/api/evidence.d.ts dist/cli/package-entry.js dist/cli/package-entry.d.ts schemas/fiat-account.schema.json schemas/in-toto/statement-v1.schema.json schemas/in-toto/test-result-v0.1.schema.json schemas/in-toto/resource-descriptor-v1.schema.json fixtures/samples/identity.json LICENSE README.md package.json; do
  grep -qx "$needed" "$work/contents" || { echo "package-check: the tarball lacks $needed" >&2; exit 1; }
done
if grep -E '^(src|tests|suites|scripts|reports)/|\.test\.|tsbuildinfo' "$work/contents"; then
  echo "package-check: the tarball holds files users do not need (above)" >&2; exit 1
fi

step "install the tarball into an empty project"
project="$work/project"
mkdir "$project" && cd "$project"
npm init -y > /dev/null
npm pkg set type=module
vitest_version="$(node -p "require('$repo/node_modules/vitest/package.json').version")"
npm install --no-audit --no-fund --loglevel=error "$tarball" "vitest@$vitest_version"

step "npx conformance run (the embedded server)"
npx --no-install conformance run --profile quick --report-dir reports
test -s reports/conformance.json

step "import the library from plain Node"
node --input-type=module -e "
import { RULES, runConformance, validateSchema, arbitraries, fc } from 'fiat-identity-conformance';
const { report, exitCode } = await runConformance({ rules: ['id.tax'], profile: 'quick' });
if (exitCode !== 0 || report.summary.verdict !== 'conformant') throw new Error('verdict ' + report.summary.verdict);
const [body] = fc.sample(arbitraries.createIdentityBody, { numRuns: 1, seed: 1 });
if (validateSchema('create-identity-request', body).length) throw new Error('a generated body is invalid');
import { UsageError, EXIT } from 'fiat-identity-conformance';
const refused = await runConformance({ rules: ['no.such.rule'] }).then(() => undefined, (error) => error);
if (!(refused instanceof UsageError) || refused.code !== 'usage' || refused.exitCode !== EXIT.usage) throw new Error('a bad setting did not throw the exported UsageError: ' + refused);
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const schema = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('fiat-identity-conformance/schemas/fiat-account.schema.json'), 'utf8'));
if (!schema.\$id) throw new Error('the schemas export lacks fiat-account');
const { main } = await import('fiat-identity-conformance/cli');
if (await main(['--version']) !== 0) throw new Error('the cli export does not run');
const { mergeShardReports, exitCodeOf } = await import('fiat-identity-conformance/report');
const { verifyBundle, bundleReportFolder } = await import('fiat-identity-conformance/evidence');
if ([mergeShardReports, exitCodeOf, verifyBundle, bundleReportFolder].some((f) => typeof f !== 'function')) throw new Error('the report or evidence entry lacks a function');
if (exitCodeOf(report) !== 0) throw new Error('exitCodeOf of a conformant report is not 0');
console.log(RULES.length + ' rules; id.tax: ' + report.summary.verdict + '; schema ' + schema.\$id);
"

step "type-check a TypeScript consumer against the declarations"
cat > consumer.ts <<'TS'
import { runConformance, arbitraries, fc, type ConformanceReport, type RuleDefinition, type UpdateFiatAccountRequest, RULES } from 'fiat-identity-conformance';
import { expectRulePassed } from 'fiat-identity-conformance/vitest';
import { UsageError, EXIT, type ErrorCode } from 'fiat-identity-conformance';
import { mergeShardReports, type ShardInput } from 'fiat-identity-conformance/report';
import { verifyEvidence, type EvidenceVerifyResult } from 'fiat-identity-conformance/evidence';
export const merged = (shards: ShardInput[]): ConformanceReport => mergeShardReports(shards);
export const verified = (bytes: Buffer): EvidenceVerifyResult => verifyEvidence(bytes);
export const usageCode = (error: unknown): ErrorCode | undefined => (error instanceof UsageError && error.exitCode === EXIT.usage ? error.code : undefined);
const first: RuleDefinition = RULES[0]!;
export const bodies: UpdateFiatAccountRequest[] = fc.sample(arbitraries.updateFiatAccountBody, 3);
export async function gate(): Promise<ConformanceReport> {
  const result = await runConformance({ rules: [first.id], profile: 'quick' });
  expectRulePassed(result, first.id);
  return result.report;
}
TS
node "$repo/node_modules/typescript/bin/tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --skipLibCheck --types node --typeRoots "$repo/node_modules/@types" consumer.ts

step "a five-line vitest file judges one rule"
cat > one-rule.test.js <<'JS'
import { test } from 'vitest';
import { runConformance } from 'fiat-identity-conformance';
import { expectRulePassed } from 'fiat-identity-conformance/vitest';
const rule = 'fa.metadata.max-pairs-accepted';
test(rule, async () => expectRulePassed(await runConformance({ rules: [rule], profile: 'quick' }), rule));
JS
npx --no-install vitest run one-rule.test.js

step "ok: the packed package installs, runs, imports, type-checks and tests"
