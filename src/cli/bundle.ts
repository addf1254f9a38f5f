/**
 * `conformance bundle <report folder> --out FILE [--sign-key K] [--redact-personal]`: the evidence
 * bundle of an existing report folder (what `run --bundle` writes at a run's end). Exit 0 written,
 * 2 usage (no report there, a bad key file, a personal value that would remain).
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { readPrivateKey } from '../report/files/bundle/signature.ts';
import { checkBundleOutput, writeEvidenceFiles } from '../report/files/bundle/write-bundle.ts';

const HELP = `usage: conformance bundle <report folder> --out FILE [--sign-key FILE] [--redact-personal]

Writes one .tar.gz of the report folder's files (conformance.json, summary.md, junit.xml,
report.html, created-identities.json, exchanges.har) with manifest.json: the SHA-256 and size of
every file, the tool, seed, profile, target, start and end, the command that repeats the run,
the document's sections the rules cite and the schemas' hash. --sign-key (an Ed25519 private
key, PEM; conformance keygen makes one) signs manifest.json into manifest.sig; without it the
bundle says it is unsigned. --redact-personal replaces names, account numbers, government ids,
emails, phone numbers, dates of birth and addresses in every file with stand-ins of the same
shape. The bundle holds attestation.intoto.jsonl, an in-toto Test Result statement over its
files in a DSSE envelope (signed with the same key), and the same file is written beside it:
FILE without .tar.gz (or .tgz) plus .intoto.jsonl (evidence.tar.gz: evidence.intoto.jsonl), for
cosign, policy engines and in-toto verifiers. Check a bundle with conformance verify FILE
--public-key public.pem. Exit 0 written, 2 usage: --out a folder, a link, a device or a FIFO, or
in a missing folder (the attestation's path beside it too).`;

const OPTIONS = {
  out: { type: 'string' },
  'sign-key': { type: 'string' },
  'redact-personal': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `conformance bundle <report folder> --out FILE`: the evidence bundle of an existing report folder. */
export async function bundle(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('bundle', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give one report folder: conformance bundle <report folder> --out FILE');
  if (!values.out?.trim()) throw new UsageError('give the bundle file: --out FILE (e.g. evidence.tar.gz)');
  const [dir] = positionals;
  // Refused before the folder is read: a device, a FIFO, a link or a folder at --out, or a missing folder.
  await checkBundleOutput('--out', values.out);
  const signKey = values['sign-key'] !== undefined ? await readPrivateKey(values['sign-key']) : undefined;
  const { manifest, beside } = await writeEvidenceFiles(dir, values.out, {
    ...(signKey ? { signKey } : {}),
    ...(values['redact-personal'] ? { redactPersonal: true } : {}),
  });
  const signed = manifest.signer ? `signed (${manifest.signer})` : 'unsigned';
  const redacted = manifest.redacted ? `, ${manifest.redactedValues} personal values replaced` : '';
  io.out(`bundle ${values.out}: ${manifest.files.length} files, ${signed}${redacted}; attestation ${beside}`);
  return 0;
}
