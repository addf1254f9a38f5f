/**
 * A failure's reproduction (docs/design.md section 4.2): one shell command line that re-creates the
 * failure on the same target, however often it is run. A create's ref_id must be new each time
 * (a used one is answered as a repeat, 409 on a faithful target), and so must its government id
 * where the run made one of its own (a target may refuse a held one): the line draws a random
 * number and sends the recorded ref_id with it appended, and the recorded government id with its
 * last digits drawn. Where the failure is about a ref_id used before (a repeat, concurrent
 * creates with one ref_id, another letter case, two ref_ids that got one identity) the line sends
 * the earlier create first, with the same fresh ref_id. Portable: POSIX sh, od and tr (Linux,
 * macOS, the BSDs, Git Bash, BusyBox); no uuidgen, no /proc.
 */
import type { Exchange, RecordedRequest } from '../../core/exchange.ts';
import { OPERATIONS } from '../../core/operations.ts';
import type { Problem } from '../../rules/check.ts';
import { isObject } from '../../rules/checks/exchange-facts.ts';
import { sentRefId } from '../../rules/create-identity/created-identities.ts';
import { isRaceCreate, otherCase } from '../../rules/create-identity/ref-id-scenarios.ts';
import { toCurl } from './curl.ts';
import { DigestTable } from '../../core/digest-table.ts';

/** A random whole number below 2^32 from the system's random source, in portable shell. */
const RANDOM_NUMBER = '$(od -An -N4 -tu4 /dev/urandom | tr -dc 0-9)';
/** Digits of a government id drawn anew: nine at most (a 32-bit draw has nine and some). */
const DRAWN_DIGITS = 9;

/** First creates kept from the start of the run, and the latest ones (a long run creates tens of thousands). */
export const CREATES_KEPT_FIRST = 64;
export const CREATES_KEPT_LATEST = 1024;

/**
 * The first create the run sent with each ref_id: what a repeat's reproduction sends first. Only
 * the first CREATES_KEPT_FIRST and the latest CREATES_KEPT_LATEST are kept (a request each, about
 * 1 KB): the scenarios repeat and flip only the ref_ids created-identities.ts keeps whole, the
 * first and the latest few; a reproduction whose earlier create is no longer kept sends the
 * failing request alone (a repeat: twice).
 */
export class CreateLog {
  private readonly first = new Map<string, { request: RecordedRequest; generation?: number }>();
  private readonly latest = new Map<string, { request: RecordedRequest; generation?: number }>();
  /** ref_ids seen after the first ones (as digests): a repeat of an evicted one is no first create. */
  private readonly seen = new DigestTable();

  constructor(private readonly keep = { first: CREATES_KEPT_FIRST, latest: CREATES_KEPT_LATEST }) {}

  observe(exchange: Exchange): void {
    const refId = sentRefId(exchange);
    if (refId === undefined || !OPERATIONS[exchange.testCase.operation].stampsRefId || this.first.has(refId)) return;
    const kept = { request: exchange.request, ...(exchange.tokenGeneration !== undefined ? { generation: exchange.tokenGeneration } : {}) };
    if (this.first.size < this.keep.first) {
      this.first.set(refId, kept);
      return;
    }
    if (!this.seen.add(refId).added) return;
    this.latest.set(refId, kept);
    if (this.latest.size > this.keep.latest) this.latest.delete(this.latest.keys().next().value as string);
  }

  firstWith(refId: string): RecordedRequest | undefined {
    return (this.first.get(refId) ?? this.latest.get(refId))?.request;
  }

  /** Which of the run's tokens carried the first create with this ref_id. */
  generationOf(refId: string): number | undefined {
    return (this.first.get(refId) ?? this.latest.get(refId))?.generation;
  }
}

/** The shell line that re-creates a failure: its request, after the earlier create it depends on, with fresh ref_ids. */
export function reproduction(exchange: Exchange, problem: Problem | undefined, creates: CreateLog): string {
  const refId = sentRefId(exchange);
  if (refId === undefined || !OPERATIONS[exchange.testCase.operation].stampsRefId) return toCurl(exchange.request);
  const script = new Script();
  const keepGovernmentId = exchange.testCase.open?.kind === 'uniqueness';
  if (isRaceCreate(exchange.testCase)) {
    const fresh = script.identity(exchange.request, refId, keepGovernmentId);
    const creates = problem?.kind === 'identity-duplicated' && problem.params.creates ? problem.params.creates : 2;
    const line = toCurl(exchange.request, { fresh });
    return script.lines([`echo '${creates} creates at once with one ref_id:'`, `${Array.from({ length: creates }, () => `${line} & `).join('')}wait`]);
  }
  const earlier = earlierCreate(exchange, problem, refId, creates);
  if (!earlier) return script.lines([toCurl(exchange.request, { fresh: script.identity(exchange.request, refId, keepGovernmentId) })]);
  const first = script.identity(earlier.request, earlier.refId, false);
  // A repeat shares the first create's ref_id (and its government id); another letter case is
  // the first's flipped; two ref_ids that got one identity are two fresh ones.
  const fresh =
    earlier.refId === refId ? first : script.identity(exchange.request, refId, keepGovernmentId, earlier.refId === otherCase(refId) ? first : undefined);
  return script.lines([
    `echo '1/2 ${earlier.what}:'`,
    toCurl(earlier.request, { fresh: first }),
    `echo; echo '2/2 ${exchange.testCase.mode === 'duplicate' ? 'the repeat with the same ref_id' : 'the failing create'}${onAnotherToken(exchange, creates.generationOf(earlier.refId))}:'`,
    toCurl(exchange.request, { fresh }),
  ]);
}

/** When the run sent the failing create on a later token than the first: the reproduction needs a new token in between. */
function onAnotherToken(exchange: Exchange, firstGeneration: number | undefined): string {
  const generation = exchange.tokenGeneration;
  if (generation === undefined || firstGeneration === undefined || generation === firstGeneration) return '';
  return `, on another access token (the run sent it on its token ${generation}, the first on token ${firstGeneration}): put a new token from the token endpoint in CONFORMANCE_TOKEN first`;
}

/** The create a failure depends on, sent before it, and what it is. */
function earlierCreate(
  exchange: Exchange,
  problem: Problem | undefined,
  refId: string,
  creates: CreateLog,
): { request: RecordedRequest; refId: string; what: string } | undefined {
  const found = (id: string, what: string) => {
    const request = creates.firstWith(id);
    return request && request !== exchange.request ? { request, refId: id, what } : undefined;
  };
  if (exchange.testCase.mode === 'duplicate')
    return found(refId, 'the first create with this ref_id') ?? { request: exchange.request, refId, what: 'a create with this ref_id' };
  if (problem?.kind === 'identity-shared') return found(problem.params.firstRefId, 'the create of the other ref_id');
  return found(otherCase(refId), 'the create with this ref_id in the other letter case');
}

/** The variables a reproduction defines, in order, and the statement of each. */
class Script {
  private readonly statements: string[] = [];
  private count = 0;

  /**
   * Variables for one identity's fresh values: a random number, the ref_id with it appended (or
   * `flipOf`'s in the other letter case), the government id with its last digits drawn from it.
   * Their values by the recorded text they replace.
   */
  identity(request: RecordedRequest, refId: string, keepGovernmentId: boolean, flipOf?: ReadonlyMap<string, string>): Map<string, string> {
    this.count += 1;
    const suffix = this.count === 1 ? '' : String(this.count);
    const random = `r${suffix}`;
    this.statements.push(`${random}=${RANDOM_NUMBER}`);
    const fresh = new Map<string, string>();
    const flipped = flipOf ? [...flipOf.values()][0] : undefined;
    if (flipped) this.statements.push(`ref_id${suffix}=$(printf %s "$${flipped}" | tr a-zA-Z A-Za-z)`);
    else this.statements.push(`ref_id${suffix}="${escapeInDoubleQuotes(refId)}-$${random}"`);
    fresh.set(refId, `ref_id${suffix}`);
    const governmentId = keepGovernmentId ? undefined : governmentIdOf(request);
    const drawn = governmentId === undefined ? undefined : drawnDigits(governmentId, random);
    if (governmentId !== undefined && drawn !== undefined) {
      this.statements.push(`cip_id${suffix}=${drawn}`);
      fresh.set(governmentId, `cip_id${suffix}`);
    }
    return fresh;
  }

  /** The variables, then the commands, as one line. */
  lines(commands: string[]): string {
    return [...this.statements, ...commands].join('; ');
  }
}

/** The government id a create sends (person_details.cip_id), when it is text. */
function governmentIdOf(request: RecordedRequest): string | undefined {
  const person = isObject(request.body) ? request.body.person_details : undefined;
  return isObject(person) && typeof person.cip_id === 'string' ? person.cip_id : undefined;
}

/**
 * The government id in double quotes with its last digits (nine at most; never its leading
 * zeros or its first significant digit, so its layout and length stay) drawn from `$random`,
 * e.g. `"386-$(printf %02d $((r / 10000 % 100)))-$(printf %04d $((r % 10000)))"`; undefined
 * when it has no digit to draw.
 */
function drawnDigits(governmentId: string, random: string): string | undefined {
  const digits = [...governmentId].flatMap((ch, at) => (/[0-9]/.test(ch) ? [at] : []));
  const leading = digits.findIndex((at) => governmentId[at] !== '0');
  const drawable = leading < 0 ? [] : digits.slice(leading + 1).slice(-DRAWN_DIGITS);
  if (!drawable.length) return undefined;
  const drawnAt = new Set(drawable);
  let out = '';
  let place = drawable.length; // digits of the draw still to place, from the left
  for (let at = 0; at < governmentId.length; ) {
    if (!drawnAt.has(at)) {
      out += escapeInDoubleQuotes(governmentId[at]);
      at += 1;
      continue;
    }
    let width = 0;
    while (drawnAt.has(at + width)) width += 1;
    place -= width;
    out += `$(printf %0${width}d $((${random}${place ? ` / 1${'0'.repeat(place)}` : ''} % 1${'0'.repeat(width)})))`;
    at += width;
  }
  return `"${out}"`;
}

const escapeInDoubleQuotes = (text: string): string => text.replace(/[$`"\\]/g, (ch) => `\\${ch}`);
