/**
 * What a failure's curl line needs before it runs (issue 31): the bearer token in
 * $CONFORMANCE_TOKEN, the one variable a run, `conformance serve` and every curl line use. With
 * OAuth client credentials the token request comes first, from $CONFORMANCE_CLIENT_ID and
 * $CONFORMANCE_CLIENT_SECRET (the run's own variables; never their values); a static token is
 * the user's own. The embedded server stopped with its run: `conformance replay` sends the
 * failures to a fresh one with the same reading and fault.
 */
import type { ConformanceReport } from './model.ts';
import { TOKEN_VARIABLE } from './curl.ts';
import { shellQuote } from '../../core/shell-word.ts';

/** One line that says what to do, and the commands to paste, in order. */
export interface ReproduceSetup {
  say: string;
  commands: string[];
}

/** The access_token of a JSON token answer, without jq: sed on the one-line body. */
const ACCESS_TOKEN = `sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p'`;

/** The token request of the client credentials grant (RFC 6749 4.4) with the run's variables, setting $CONFORMANCE_TOKEN. */
export function tokenRequest(tokenUrl: string, scope?: string): string {
  const form = [
    '--data-urlencode grant_type=client_credentials',
    '--data-urlencode "client_id=$CONFORMANCE_CLIENT_ID"',
    '--data-urlencode "client_secret=$CONFORMANCE_CLIENT_SECRET"',
    ...(scope ? [`--data-urlencode ${shellQuote(`scope=${scope}`)}`] : []),
  ];
  return `export ${TOKEN_VARIABLE}="$(curl -sS -X POST ${shellQuote(tokenUrl)} ${form.join(' ')} | ${ACCESS_TOKEN})"`;
}

/** What to do before a report's curl lines run; undefined when they need nothing. */
export function reproduceSetup(report: Pick<ConformanceReport, 'target'>, reportFile = 'conformance.json'): ReproduceSetup | undefined {
  const { target } = report;
  if (target.embedded) {
    return {
      say: `The run's embedded server stopped with the run, so its curl lines have no target; this, in the report's folder, sends the failures again to a fresh one with the same reading and fault:`,
      commands: [`conformance replay ${reportFile}`],
    };
  }
  const credentials = target.credentials;
  if (credentials?.kind === 'client-credentials') {
    return {
      say: `The curl lines read the bearer token from $${TOKEN_VARIABLE}. Get one first, with CONFORMANCE_CLIENT_ID and CONFORMANCE_CLIENT_SECRET set as for the run (\`set -a; . ./.env; set +a\` reads a .env):`,
      commands: [tokenRequest(credentials.tokenUrl, credentials.scope)],
    };
  }
  if (credentials?.kind === 'none') return undefined;
  return {
    say: `The curl lines read the bearer token from $${TOKEN_VARIABLE}: set it to the token the run used (\`export ${TOKEN_VARIABLE}=...\`).`,
    commands: [],
  };
}

/** The setup as plain text: the line that says what to do, then each command indented. */
export function setupText(setup: ReproduceSetup): string {
  return [setup.say, ...setup.commands.map((c) => `  ${c}`)].join('\n');
}
