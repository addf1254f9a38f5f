/**
 * `conformance keygen --out DIR`: makes an Ed25519 key pair for signing bundles: DIR/private.pem
 * (PKCS#8, mode 600) and DIR/public.pem (SPKI). Never overwrites a key; prints the paths and the
 * public key's fingerprint, never the private key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { ensureFolder } from '../report/files/report-dir.ts';
import { keyFingerprint } from '../report/files/bundle/signature.ts';

const HELP = `usage: conformance keygen --out DIR

Makes an Ed25519 key pair for signing evidence bundles: DIR/private.pem (PKCS#8, readable by
you alone; give it to run --sign-key or bundle --sign-key, keep it secret) and DIR/public.pem
(SPKI; give it to whoever verifies: conformance verify FILE --public-key public.pem). An
existing key is never overwritten. The same pair: openssl genpkey -algorithm ed25519 -out
private.pem && openssl pkey -in private.pem -pubout -out public.pem.`;

const OPTIONS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

async function writeNew(file: string, text: string, mode: number): Promise<void> {
  try {
    await writeFile(file, text, { flag: 'wx', mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'EEXIST' ? `${file} exists; keygen never overwrites a key: choose another --out` : `cannot write ${file} (${code})`);
  }
}

/** `conformance keygen --out DIR`: a new Ed25519 key pair, never over an existing key. */
export async function keygen(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('keygen', argv, OPTIONS);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (!values.out?.trim()) throw new UsageError('give the folder for the key pair: conformance keygen --out DIR');
  const problem = await ensureFolder(values.out);
  if (problem) throw new UsageError(`--out ${values.out} cannot be used: ${problem}`);
  const privateFile = path.join(values.out, 'private.pem');
  const publicFile = path.join(values.out, 'public.pem');
  // Both checked first: a refusal leaves no half pair behind.
  for (const file of [privateFile, publicFile])
    if (existsSync(file)) throw new UsageError(`${file} exists; keygen never overwrites a key: choose another --out`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await writeNew(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 0o600);
  await writeNew(publicFile, publicKey.export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  io.out(`private key ${privateFile} (keep it secret), public key ${publicFile} (${keyFingerprint(publicKey)})`);
  return 0;
}
