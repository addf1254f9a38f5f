/**
 * `conformance verify <bundle.tar.gz> [--public-key K] [--json]`: checks a bundle offline (every
 * hash, the signature, the verdict recomputed from the rules, the rule statuses re-judged from the
 * recorded exchanges) and prints one line: what it proves, or what changed. Exit 0 verified, 1 verification failed, 2 usage (no such file, not a
 * bundle, a bad key file).
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { EXIT, UsageError } from '../core/errors.ts';
import { readPublicKey } from '../report/files/bundle/signature.ts';
import { type RejudgeSummary, verifyEvidenceFile } from '../run/verify-evidence.ts';
import { verifyAttestationFile } from './verify-attestation.ts';
import { verifyInput } from './verify-input.ts';

const HELP = `usage: conformance verify <bundle.tar.gz> [--public-key FILE] [--json]
       conformance verify <attestation.intoto.jsonl> --public-key FILE [--bundle FILE | --subjects DIR] [--json]

Checks an evidence bundle (run --bundle, conformance bundle) offline: the archive reads, every
file has the SHA-256 and size manifest.json lists and no file is unlisted, the signature of
manifest.json matches --public-key (PEM, SPKI), and conformance.json's verdict, summary counts
and rule statuses follow from its rules (junit.xml and summary.md state the same verdict).
Then every rule status is re-judged from the answers exchanges.har recorded, sending nothing: a
failed rule must fail, a passed one pass, an inconclusive one not fail (an entry whose body the
HAR cut judges nothing: the rules of its operation are listed as not re-judged).
Without --public-key a signed bundle is checked against the public key it carries: that proves
integrity only, not who signed. An unsigned bundle says "unsigned: integrity only, no proof of
origin", and fails with --public-key. A failure is one line naming what changed.
The bundle's attestation.intoto.jsonl must be signed by the same key, attest the manifest's files
and say what conformance.json says (result from the verdict, tests from the rule statuses).
The bundle is read as a stream, each file hashed as it is inflated; a file whose header declares
more than its limit is refused before any of it is inflated (manifest.json 1 MiB, manifest.sig
and signer-public-key.pem 4 KiB, conformance.json 32 MiB, junit.xml and summary.md 16 MiB,
report.html and created-identities.json 256 MiB, exchanges.har 1 GiB, any other 16 MiB; all
together 1.5 GiB), so a gzip bomb is refused early. An exchanges.har over 24 MiB is copied to a
private temporary folder as it streams and re-judged from there entry by entry: verify keeps
within 250 MB.
--json prints {verified, problem?, notes, key, manifest, attestation?, rejudge?} instead.

An attestation (the envelope run --bundle writes beside the bundle) is checked on its own: the
DSSE signature against --public-key (needed when it is signed), the in-toto Statement v1 and its
Test Result predicate against the published schemas, and the subjects' SHA-256: in the bundle
given with --bundle (verified whole first, and the attestation must be the bundle's own), or in
the folder given with --subjects (the bundle unpacked; its conformance.json must then state the
same result and tests). --json prints {verified, problem?, notes, key, statement?}.
Exit 0 verified, 1 verification failed, 2 usage (no such file, not a bundle, a bad key file).`;

const OPTIONS = {
  'public-key': { type: 'string' },
  bundle: { type: 'string' },
  subjects: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What the re-judge covered, for the line of a verified bundle: how many rules it could not judge again, and why (--json names them). */
function rejudgedText(rejudge: RejudgeSummary): string {
  const judged = `${rejudge.rules.length} rule statuses re-judged from ${rejudge.rebuilt} recorded exchanges`;
  const whys = [...new Set(rejudge.notRejudged.map((r) => r.why))];
  const left = whys.map((why) => `${rejudge.notRejudged.filter((r) => r.why === why).length} not re-judged: ${why}`);
  return left.length ? `${judged} (${left.join('; ')})` : judged;
}

/** `conformance verify`: one line, verified or what changed; exit 0, 1, or 2 for a usage error. */
export async function verify(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give one bundle file: conformance verify <bundle.tar.gz> [--public-key FILE]');
  const [file] = positionals;
  const publicKey = values['public-key'] !== undefined ? await readPublicKey(values['public-key']) : undefined;
  // An attestation (a small JSON file) is told from a bundle by its first bytes; a bundle is read as a stream.
  const input = await verifyInput(file);
  if (input.kind === 'envelope') {
    const { bundle, subjects, json } = values;
    return verifyAttestationFile(file, input.bytes, { ...(publicKey ? { publicKey } : {}), bundle, subjects, json }, io);
  }
  if (values.bundle !== undefined || values.subjects !== undefined)
    throw new UsageError(`--bundle and --subjects go with an attestation: conformance verify attestation.intoto.jsonl --bundle ${file}`);
  const result = await verifyEvidenceFile(file, publicKey);
  if (values.json) {
    io.out(JSON.stringify(result, null, 2));
  } else if (result.verified) {
    const m = result.manifest!;
    const rejudged = result.rejudge ? `, ${rejudgedText(result.rejudge)}` : '';
    const attested = result.attestation ? `, ${result.attestation.subjects} files attested ${result.attestation.result} by its attestation` : '';
    io.out(`verified: ${file}: ${m.files.length} files, verdict ${m.verdict} recomputed from the rules${rejudged}${attested}; ${result.notes.join('; ')}`);
  } else {
    io.err(`conformance verify: ${file}: verification failed: ${result.problem}`);
  }
  return result.verified ? EXIT.conformant : EXIT.nonConformant;
}
