/**
 * The transport with a listener on every exchange the run's cases bring back, judged or not (an
 * answer that arrives after an interrupt is never judged, but what it created exists): the ledger
 * of created identities (identity-ledger.ts) hears them all here.
 */
import type { Exchange } from '../../core/exchange.ts';
import type { Transport } from './transport.ts';

export function observedTransport(transport: Transport, observe: (exchange: Exchange) => void): Transport {
  const tap = (exchange: Exchange): Exchange => {
    observe(exchange);
    return exchange;
  };
  return {
    send: async (testCase, options) => tap(await transport.send(testCase, options)),
    sendTogether: async (testCases) => (await transport.sendTogether(testCases)).map(tap),
    sendCleanup: async (testCase) => tap(await transport.sendCleanup(testCase)),
    authenticate: () => transport.authenticate(),
    checkReachable: () => transport.checkReachable(),
    recordSent: (recorder) => transport.recordSent(recorder),
    get requestCount() {
      return transport.requestCount;
    },
    secrets: () => transport.secrets(),
    ...(transport.budget ? { budget: transport.budget } : {}),
  };
}
