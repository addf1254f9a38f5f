/**
 * The command line a run was started with, as an evidence bundle's manifest records it: every
 * word as typed, shell-quoted where needed, the values of the secret flags (--token,
 * --client-secret) replaced, and so are every query value of --auth-url (a token endpoint's URL
 * may carry a key) and the secret-looking query values of any other URL (src/core/query-secrets.ts). Settings from the environment or .env are not on it; the manifest's
 * seed, profile and target say what they resolved to.
 */
import { REDACTED } from '../core/redaction.ts';
import { urlWithoutSecrets } from '../core/query-secrets.ts';
import { shellWord } from '../report/model/curl.ts';

/** Flags whose value is a credential. */
const SECRET_FLAGS = ['--token', '--client-secret'];
/** Flags whose value is a credential URL: every query value goes. */
const CREDENTIAL_URL_FLAGS = ['--auth-url'];

/** A word as recorded: a URL without its query secrets (all of them after a credential URL flag). */
function recorded(word: string, previous: string | undefined): string {
  const inline = CREDENTIAL_URL_FLAGS.find((f) => word.startsWith(`${f}=`));
  if (inline) return `${inline}=${urlWithoutSecrets(word.slice(inline.length + 1), true)}`;
  if (previous !== undefined && CREDENTIAL_URL_FLAGS.includes(previous)) return urlWithoutSecrets(word, true);
  // A URL, alone or as --flag=URL: other words keep their `?` (a rule filter's pattern).
  return word.includes('://') ? urlWithoutSecrets(word) : word;
}

/** `conformance run --base-url … --client-secret [REDACTED] …` for `argv`, the words after `conformance`. */
export function commandLineWithoutSecrets(argv: readonly string[]): string {
  const words = ['conformance'];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const flag = SECRET_FLAGS.find((f) => word === f || word.startsWith(`${f}=`));
    if (!flag) words.push(shellWord(recorded(word, argv[i - 1])));
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
