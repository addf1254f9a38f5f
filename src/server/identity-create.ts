/** POST /v2/identity/identities (4.2): validate, keep ref_id unique, answer the Identity. */
import type { ServerResponse } from 'node:http';
import { parseBodyOrRefuse, refuseInvalid, refuseOpenPoint, takenUnchecked, type HandlerContext } from './handler-context.ts';
import { sendJson } from './http-io.ts';
import { identityResponse } from './identity-response.ts';
import type { IdentityStore } from './identity-store.ts';
import { sendProblem } from './problem.ts';
import { govtIdOf, strictRefusal } from './strict-open-points.ts';
import { violations } from './validation.ts';

const OPERATION = 'createIdentity';

export async function handleIdentityCreate(identities: IdentityStore, bytes: Buffer, context: HandlerContext, res: ServerResponse): Promise<void> {
  const body = parseBodyOrRefuse(bytes, OPERATION, context, res);
  if (!body) return;
  if (context.behaviour.crashesOn(OPERATION, body)) {
    sendJson(res, 500, { error: 'internal' });
    return;
  }
  const { behaviour, reading } = context;
  const refIdKey =
    typeof body.ref_id === 'string' ? behaviour.refIdKey(reading.refIdCase === 'insensitive' ? body.ref_id.toLowerCase() : body.ref_id, body) : body.ref_id;
  const found = takenUnchecked(bytes, OPERATION, context) ? [] : violations(OPERATION, body, behaviour, reading);
  const openPoint = !found.length && context.strict ? strictRefusal(OPERATION, body) : undefined;
  // A fault reserves the ref_id before it validates, and never releases it.
  if ((found.length || openPoint) && behaviour.reservesRefusedRefIds && typeof refIdKey === 'string') identities.reserve(context.owner, refIdKey);
  if (found.length) {
    refuseInvalid(res, found, context, OPERATION);
    return;
  }
  if (openPoint) {
    refuseOpenPoint(res, openPoint, context);
    return;
  }
  if (behaviour.failsToStore(OPERATION, body)) {
    sendProblem(res, 500, 'internal error');
    return;
  }
  const outcome = await identities.create(
    context.owner,
    refIdKey,
    () => behaviour.identityResponse(identityResponse(body), body),
    behaviour.refIdUniqueness,
    context.strict ? govtIdOf(body) : undefined,
  );
  if ('reserved' in outcome) {
    sendProblem(res, 409, 'ref_id is already used; a ref_id is unique among the identities of one API user');
    return;
  }
  if ('govtIdHolder' in outcome) {
    const holder = typeof outcome.govtIdHolder === 'string' ? ` by identity ${outcome.govtIdHolder}` : '';
    sendJson(res, 409, { error: 'duplicate_govt_id', field: 'person_details.cip_id', message: `cip_id is already used${holder}` });
    return;
  }
  const duplicateAnswer = outcome.created ? undefined : behaviour.duplicateResponse(structuredClone(outcome.identity));
  if (duplicateAnswer) {
    sendJson(res, reading.createdStatus, duplicateAnswer, behaviour.successContentType(OPERATION));
    return;
  }
  // Unique without regard to case, a used ref_id in another case is refused: the identity of the
  // other ref_id back would conflate two ref_ids (id.distinct-identities).
  const otherCase = reading.refIdCase === 'insensitive' && outcome.identity.ref_id !== body.ref_id;
  if (!outcome.created && (reading.duplicateRefId === 'conflict' || otherCase)) {
    const first = typeof outcome.identity.id === 'string' ? ` by identity ${outcome.identity.id}` : '';
    sendProblem(res, 409, `ref_id is already used${first}; a ref_id is unique among the identities of one API user`);
    return;
  }
  // A repeat under the "same" reading gets the first identity back, as if it were the create.
  sendJson(res, reading.createdStatus, outcome.identity, behaviour.successContentType(OPERATION));
}
