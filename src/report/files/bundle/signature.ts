/**
 * The bundle's signature: Ed25519 (node:crypto) over the exact bytes of manifest.json. Keys are
 * PEM files: PKCS#8 for the private key, SPKI for the public one (`conformance keygen` writes a
 * pair; `openssl genpkey -algorithm ed25519` makes one too). A key file that is not what it should
 * be is one UsageError line; the private key's bytes never appear in any message.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../../core/errors.ts';

async function keyText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); give a PEM key file`);
  }
}

/** The Ed25519 private key in a PEM file (PKCS#8), or a UsageError that names the file, never its content. */
export async function readPrivateKey(file: string, flag = '--sign-key'): Promise<KeyObject> {
  const text = await keyText(file, flag);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new UsageError(`${flag} ${file} is not a PEM private key; make one with \`conformance keygen --out DIR\``);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${flag} ${file} is a ${key.asymmetricKeyType} key; bundles are signed with Ed25519 keys`);
  return key;
}

/** An Ed25519 public key from PEM text (SPKI), or undefined when the text is not one. */
export function publicKeyOfPem(text: string): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: text, format: 'pem' });
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The Ed25519 public key in a PEM file (SPKI), or a UsageError. A private key file is refused: a verifier needs only the public half. */
export async function readPublicKey(file: string, flag = '--public-key'): Promise<KeyObject> {
  const text = await keyText(file, flag);
  if (/PRIVATE KEY-----/.test(text)) throw new UsageError(`${flag} ${file} holds a private key; give the public key (public.pem)`);
  const key = publicKeyOfPem(text);
  if (!key) throw new UsageError(`${flag} ${file} is not a PEM Ed25519 public key (-----BEGIN PUBLIC KEY-----)`);
  return key;
}

/** The public key's PEM (SPKI), as the bundle carries it for information. */
/** The public half of a key pair's either half. */
export const publicHalf = (key: KeyObject): KeyObject => (key.type === 'public' ? key : createPublicKey(key));

export const publicKeyPem = (key: KeyObject): string => publicHalf(key).export({ type: 'spki', format: 'pem' }).toString();

/** `SHA256:<hex>` of the public key's SPKI bytes: names a key in a line without showing it. */
export function keyFingerprint(key: KeyObject): string {
  const der = publicHalf(key).export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('hex').slice(0, 32)}`;
}

/** The 64-byte Ed25519 signature of `bytes`. */
export const signBytes = (bytes: Buffer, privateKey: KeyObject): Buffer => sign(null, bytes, privateKey);

/** Whether `signature` is `publicKey`'s over `bytes`; a malformed signature is simply not. */
export function signatureMatches(bytes: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  try {
    return verify(null, bytes, publicKey, signature);
  } catch {
    return false;
  }
}
