/**
 * The request budget at the wire (request-budget.ts): every request takes a unit before it is
 * sent, retries and resends included, so no phase can overrun it. Past the budget the request
 * is not sent and RunStop('budget') ends the run with what it judged.
 */
import type { RequestBudget } from '../request-budget.ts';
import type { Layer } from './send.ts';

export function requestCap(budget: RequestBudget | undefined, housekeeping = false): Layer {
  if (!budget) return (next) => next;
  return (next) => async (request) => {
    const what = `${request.method} ${new URL(request.url).pathname}`;
    if (housekeeping) budget.takeReserved(what);
    else budget.take(what);
    return next(request);
  };
}
