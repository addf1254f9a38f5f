/** PUT /v2/transfer/fiat-accounts/{id} (4.1): validate, apply to the stored account, answer the FiatAccount. */
import type { ServerResponse } from 'node:http';
import type { ServerBehaviour, Violation } from './behaviour.ts';
import { mergeObjects, type FiatAccountRecord } from './fiat-account-store.ts';
import { fiatAccountResponse } from './fiat-account-response.ts';
import { parseBodyOrRefuse, refuseInvalid, refuseOpenPoint, type HandlerContext } from './handler-context.ts';
import { sendJson } from './http-io.ts';
import { isPlainObject } from './json-body.ts';
import { sendProblem } from './problem.ts';
import type { Reading } from './reading.ts';
import { strictRefusal } from './strict-open-points.ts';
import { isUuid } from './text.ts';
import { violations } from './validation.ts';
import { valueAtPointer, withoutIgnoredValues } from './ignored-values.ts';

const OPERATION = 'updateFiatAccount';

export function handleFiatAccountUpdate(
  accounts: ReadonlyMap<string, FiatAccountRecord>,
  pathId: string,
  bytes: Buffer,
  context: HandlerContext,
  res: ServerResponse,
): void {
  if (!isUuid(pathId)) {
    sendProblem(res, context.reading.rejectStatus, 'the fiat account id in the path must be a UUID');
    return;
  }
  const record = accounts.get(pathId.toLowerCase());
  if (!record) {
    sendProblem(res, context.behaviour.unknownAccountStatus, `no fiat account with id ${pathId}`);
    return;
  }
  const parsed = parseBodyOrRefuse(bytes, OPERATION, context, res);
  if (!parsed) return;
  const body = context.reading.updateNulls === 'ignored' ? withoutIgnoredValues(parsed) : parsed;
  if (context.behaviour.crashesOn(OPERATION, body)) {
    sendJson(res, 500, { error: 'internal' });
    return;
  }
  // A fault may take nulls as values (and write them): their type errors are then no reason to refuse.
  const found = violations(OPERATION, body, context.behaviour, context.reading).filter(
    (v) => !(context.behaviour.writesNulls && valueAtPointer(body, v.instancePath) === null),
  );
  const openPoint = !found.length && context.strict ? strictRefusal(OPERATION, body) : undefined;
  if (openPoint) {
    refuseOpenPoint(res, openPoint, context);
    return;
  }
  if (!found.length && context.behaviour.failsToStore(OPERATION, body)) {
    sendProblem(res, 500, 'internal error');
    return;
  }
  const ownerBefore = { ...record.owner };
  const applied = found.length ? found : applyUpdate(record, body, context.reading, context.behaviour);
  if (applied.length) {
    if (context.behaviour.writesNamesOfRefusedUpdate && applied.every((v) => METADATA_CONCERNS.has(v.concern)))
      writeOwnerNames(record, body, context.behaviour);
    refuseInvalid(res, applied, context, OPERATION);
    return;
  }
  const answer = context.behaviour.fiatAccountResponse(fiatAccountResponse(record, context.reading.placement));
  if (!context.behaviour.keepsOwnerNames) record.owner = ownerBefore;
  if (context.behaviour.ownerNamesOnEveryAccount) for (const other of accounts.values()) other.owner = { ...record.owner };
  sendJson(res, 200, answer, context.behaviour.successContentType(OPERATION));
}

/** The refusals of metadata limits (section 8): a fault writes the owner names before it checks them. */
const METADATA_CONCERNS: ReadonlySet<Violation['concern']> = new Set(['metadata-pairs', 'metadata-length']);

/** Stores the owner names an update sent. */
function writeOwnerNames(record: FiatAccountRecord, body: Record<string, unknown>, behaviour: ServerBehaviour): void {
  const owner = body.fiat_account_owner;
  const person = isPlainObject(owner) ? owner.person_details : undefined;
  if (!isPlainObject(person) || !behaviour.storesOwnerNames) return;
  for (const key of ['first_name', 'last_name'] as const) {
    const value = person[key];
    if (typeof value === 'string' || (value === null && behaviour.writesNulls)) record.owner[key] = value;
  }
}

/**
 * Stores owner names, wire instructions and metadata (replaced or merged per the reading). Fields
 * of another type than expected are skipped (only a fault lets such a body through), so what is
 * stored stays well-formed. Returns the violation when merged metadata would pass the limit.
 */
function applyUpdate(record: FiatAccountRecord, body: Record<string, unknown>, reading: Reading, behaviour: ServerBehaviour): Violation[] {
  if (isPlainObject(body.metadata)) {
    const metadata = reading.metadataUpdate === 'merge' ? { ...record.metadata, ...body.metadata } : { ...body.metadata };
    const pairs = Object.keys(metadata).length;
    if (pairs > behaviour.maxMetadataPairs && !behaviour.ignores(OPERATION, 'metadata-pairs')) {
      return [
        {
          concern: 'metadata-pairs',
          instancePath: '/metadata',
          message: `with the ${Object.keys(record.metadata).length} pairs stored, the account would hold ${pairs} pairs (at most ${behaviour.maxMetadataPairs})`,
        },
      ];
    }
    record.metadata = behaviour.storedMetadata(metadata);
  }
  writeOwnerNames(record, body, behaviour);
  const instructions = body.fiat_network_instructions;
  if (isPlainObject(instructions) && isPlainObject(instructions.wire)) record.wire = mergeObjects(record.wire, instructions.wire);
  // Never before created_at, whatever the clock did since.
  record.updated_at = new Date(Math.max(Date.now(), Date.parse(record.created_at))).toISOString();
  return [];
}
