/**
 * A token whose scopes do not cover one operation: every request of that operation answered 403.
 * That is the credentials' problem, not the API's: judged, it would fail the operation's
 * `.valid-accepted` and leave its other rules inconclusive (exit 1). The first 403 of an operation
 * that has had no other answer yet is put to one more request, the document's simplest valid one
 * (a minimal create, an empty update); a 403 to that too stops the run (exit 3) with what to ask
 * for. A 403 on only some requests of an operation is judged as any other answer.
 */
import type { TestCase } from '../core/case.ts';
import type { Exchange, RecordedResponse } from '../core/exchange.ts';
import { describeOperation, type Operation } from '../core/operations.ts';
import { RunStop } from './run-stop.ts';
import { minimalIdentity } from '../rules/create-identity/minimal-identity.ts';

/** The scope a 403 asks for (RFC 6750 section 3: `Bearer error="insufficient_scope", scope="..."`), when it names one. */
export function scopeAskedFor(response: RecordedResponse | undefined): string | undefined {
  const header = response?.headers['www-authenticate'];
  return header ? /\bscope="([^"]+)"/i.exec(header)?.[1] : undefined;
}

/**
 * What to ask for: the scope the target named, else a token allowed to call the operation (the
 * document names no scopes, section 5).
 */
export function accessAdvice(operation: Operation, response: RecordedResponse | undefined): string {
  const scope = scopeAskedFor(response);
  const line = describeOperation(operation);
  return scope
    ? `ask for a token with the scope "${scope}" the target names (with client credentials: --scope "${scope}")`
    : `ask for a token allowed to call ${line} (the document names no scopes, section 5; with client credentials, add the one that covers it to --scope)`;
}

/** Every request of an operation, and a minimal valid one sent to make sure, answered 403. */
export class OperationForbidden extends RunStop {
  constructor(
    readonly operation: Operation,
    readonly first: Exchange,
    readonly confirmation: Exchange,
  ) {
    // What to do first: a console cuts the line, the report keeps it whole.
    super(
      'authorization',
      `HTTP 403 to every ${describeOperation(operation)}: ${accessAdvice(operation, confirmation.response)}; 403 to "${first.testCase.label}", then to a minimal valid request sent to make sure`,
    );
  }
}

/** The request sent to make sure: the document's simplest valid request of the operation. */
export type ConfirmingRequest = (operation: Operation) => Promise<Exchange>;

/** Label of the confirming request, so reports and the HAR say what it was for. */
export const CONFIRMING_LABEL = 'is this operation allowed to the credentials? (after a 403)';

export class OperationAccess {
  /** Operations that answered something else than 403 to the run's credentials. */
  private readonly allowed = new Set<Operation>();
  /** One confirmation per operation, shared by every 403 that waits on it. */
  private readonly confirming = new Map<Operation, Promise<void>>();

  constructor(private readonly confirm: ConfirmingRequest) {}

  /** Throws OperationForbidden when this 403 and the confirming request's show the operation closed to the credentials. */
  async check(exchange: Exchange): Promise<void> {
    const c = exchange.testCase;
    // Only the run's own credentials on the operation's own requests say whether it is allowed.
    if (!exchange.response || c.auth !== undefined || c.around !== undefined || c.restore !== undefined) return;
    if (exchange.response.status !== 403) {
      this.allowed.add(c.operation);
      return;
    }
    if (this.allowed.has(c.operation)) return;
    let pending = this.confirming.get(c.operation);
    if (!pending) {
      pending = this.confirmClosed(c.operation, exchange);
      this.confirming.set(c.operation, pending);
    }
    await pending;
  }

  private async confirmClosed(operation: Operation, first: Exchange): Promise<void> {
    const confirmation = await this.confirm(operation);
    if (confirmation.response?.status === 403) throw new OperationForbidden(operation, first, confirmation);
    if (confirmation.response) this.allowed.add(operation);
  }
}

/** The confirming request of an operation: a minimal valid create, or an empty update of `accountId`. */
export function confirmingCase(operation: Operation, accountId: string | undefined): TestCase {
  return operation === 'createIdentity'
    ? minimalIdentity(CONFIRMING_LABEL)
    : { operation, mode: 'valid', label: CONFIRMING_LABEL, body: {}, ...(accountId ? { fiatAccountId: accountId } : {}) };
}
