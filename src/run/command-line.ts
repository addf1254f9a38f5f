/**
 * The command line a run was started with, as an evidence bundle's manifest records it: every
 * word as typed, shell-quoted where needed, the values of the secret flags (--token,
 * --client-secret) replaced. Settings from the environment or .env are not on it; the manifest's
 * seed, profile and target say what they resolved to.
 */
import { REDACTED } from '../core/redaction.ts';
import { shellWord } from '../report/model/curl.ts';

/** Flags whose value is a credential. */
const SECRET_FLAGS = ['--token', '--client-secret'];

/** `conformance run --base-url … --client-secret [REDACTED] …` for `argv`, the words after `conformance`. */
export function commandLineWithoutSecrets(argv: readonly string[]): string {
  const words = ['conformance'];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const flag = SECRET_FLAGS.find((f) => word === f || word.startsWith(`${f}=`));
    if (!flag) words.push(shellWord(word));
    else if (word === flag) {
      words.push(flag);
      if (i + 1 < argv.length) {
        words.push(REDACTED);
        i++;
      }
    } else words.push(`${flag}=${REDACTED}`);
  }
  return words.join(' ');
}
