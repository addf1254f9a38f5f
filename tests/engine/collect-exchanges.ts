/**
 * A listener that keeps every exchange of a run in memory, for tests that inspect what was sent.
 * The runner keeps none (a long run would not fit); it fits both the engine's and the report's
 * events, which carry exchanges the same way.
 */
import type { Exchange } from '../../src/core/exchange.ts';

export function collectExchanges(): { exchanges: Exchange[]; listener: (event: { type: string; exchange?: Exchange }) => void } {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    listener: (event) => {
      if (event.type === 'exchange' && event.exchange) exchanges.push(event.exchange);
    },
  };
}
