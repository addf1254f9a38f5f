/**
 * A request with no body at all goes as curl sends it: with neither Content-Length nor
 * Transfer-Encoding (RFC 9112 section 6.3: such a request has no body). Node's ClientRequest
 * frames a PUT, POST or PATCH ended without data with "Content-Length: 0" (it chunks those methods
 * by default); an empty body is a different request from none at all for some frameworks (a body
 * parser that sees no framing leaves the body undefined). The agent here turns that default off
 * for each request it takes, then hands the request to the agent it wraps (the proxy's, or node's
 * global one), whose sockets and pool it keeps.
 */
import http from 'node:http';
import https from 'node:https';

type AddRequest = (req: http.ClientRequest, options: unknown) => void;

/** Node frames an empty request of these methods with nothing already (its ClientRequest does not chunk them). */
const UNFRAMED_BY_NODE = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Whether a request of `method` without a body needs the agent below to go without framing. */
export const needsUnframing = (method: string): boolean => !UNFRAMED_BY_NODE.has(method.toUpperCase());

/** `agent` (or node's global agent for the URL's scheme), sending each request with no framing of its body. */
export function unframedAgent(url: string, agent: http.Agent | undefined): http.Agent {
  const base: http.Agent = agent ?? (url.startsWith('https:') ? https.globalAgent : http.globalAgent);
  const add = (base as unknown as { addRequest: AddRequest }).addRequest.bind(base);
  const wrapper = Object.create(base) as http.Agent & { addRequest: AddRequest };
  wrapper.addRequest = (req, options) => {
    // Read when the headers are written, which is after the agent took the request.
    (req as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault = false;
    add(req, options);
  };
  return wrapper;
}
