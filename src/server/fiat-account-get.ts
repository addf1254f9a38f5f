/**
 * GET /v2/transfer/fiat-accounts/{id}: the get operation of fiat accounts that section 1 names
 * without describing. The embedded server answers the stored account as the update would, so a
 * client (the harness's restore) can read an account without writing to it.
 */
import type { ServerResponse } from 'node:http';
import type { FiatAccountRecord } from './fiat-account-store.ts';
import { fiatAccountResponse } from './fiat-account-response.ts';
import type { HandlerContext } from './handler-context.ts';
import { sendJson } from './http-io.ts';
import { sendProblem } from './problem.ts';
import { isUuid } from './text.ts';

export function handleFiatAccountGet(accounts: ReadonlyMap<string, FiatAccountRecord>, pathId: string, context: HandlerContext, res: ServerResponse): void {
  const record = isUuid(pathId) ? accounts.get(pathId.toLowerCase()) : undefined;
  if (!isUuid(pathId)) sendProblem(res, context.reading.rejectStatus, 'the fiat account id in the path must be a UUID');
  else if (!record) sendProblem(res, context.behaviour.unknownAccountStatus, `no fiat account with id ${pathId}`);
  // The stored account as it is: a fault shapes the update's answer, not what a read shows.
  else sendJson(res, 200, fiatAccountResponse(record, context.reading.placement));
}
