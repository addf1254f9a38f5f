/**
 * The shape every transport policy shares (like undici's interceptors): a `Send` takes a request
 * and gives back its outcome, and a `Layer` wraps a Send in one policy. `compose` stacks a list of
 * layers around the one HTTP call (the list: stack.ts); each layer can be tested alone with a
 * fake `next`.
 */
import type { UnauthenticatedKind } from '../../core/case.ts';
import type { RecordedResponse, TransportError } from '../../core/exchange.ts';
import type { HttpRequest } from './http-call.ts';

/** A request on its way down the stack. */
export interface Request extends HttpRequest {
  /** The credential it asks for: the run's own (absent), none, or the made-up wrong one. */
  auth?: UnauthenticatedKind;
  /** Told each time a copy of the request goes on the wire (counting.ts): the record knows what was sent. */
  onWire?: () => void;
}

/** What came back, and for which request: a layer that resends (a renewal) answers with the last one. */
export interface Outcome {
  request: Request;
  response?: RecordedResponse;
  error?: TransportError;
  /** The system error code when no response came (ECONNREFUSED ...), for one-line messages. */
  code?: string;
  /** When it went on the wire and how long the answer took (the bottom of the stack sets them). */
  startedAt?: string;
  durationMs?: number;
  /**
   * Attempts before this one that were sent again (a 429 waited out, a 401 to a token since
   * renewed), oldest first: the target received them, so exchanges.har records them and they count.
   */
  earlier?: Outcome[];
  /** Which fetched token of the run it carried (auth.ts sets it; Exchange.tokenGeneration). */
  tokenGeneration?: number;
}

/** `outcome` with the attempts before it (theirs first), none kept on them: one flat list, oldest first. */
export function afterAttempts(outcome: Outcome, attempts: readonly Outcome[]): Outcome {
  const flat = attempts.flatMap(({ earlier = [], ...attempt }) => [...earlier, attempt]);
  const all = [...flat, ...(outcome.earlier ?? [])];
  return all.length ? { ...outcome, earlier: all } : outcome;
}

export type Send = (request: Request) => Promise<Outcome>;
export type Layer = (next: Send) => Send;

/**
 * A list of layers as one layer, read top to bottom: the first is the outermost, the one a
 * request meets first (undici's `compose([...])`).
 */
export function compose(layers: readonly Layer[]): Layer {
  return (bottom) => layers.reduceRight((next, layer) => layer(next), bottom);
}

/** The request with one header set; the original is left as it was (the record may hold it). */
export function withHeader(request: Request, name: string, value: string): Request {
  return { ...request, headers: { ...request.headers, [name]: value } };
}
