/**
 * A CONNECT tunnel through an HTTP(S) proxy (https-proxy-agent) that fails the request when the
 * proxy refuses the tunnel. https-proxy-agent plays the proxy's refusal (407, 403, 502 ...) back
 * as if the target had answered it; the harness would then judge the proxy's answer as the API's.
 * Here the refusal is a transport error instead: no rule judges it, and the reachability check
 * stops the run with it (a red result always means the API).
 */
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ProxyRefusedError, refusal } from './proxy-refusal.ts';

type ConnectOptions = Parameters<HttpsProxyAgent<string>['connect']>[1];

export class RefusingTunnelAgent extends HttpsProxyAgent<string> {
  override async connect(req: ClientRequest, opts: ConnectOptions): Promise<Socket> {
    let status = 200;
    req.once('proxyConnect', (connect: { statusCode?: number; statusText?: string }) => {
      status = connect.statusCode ?? 200;
    });
    const socket = await super.connect(req, opts);
    if (status === 200) return socket;
    socket.destroy();
    throw new ProxyRefusedError(refusal(status, `${opts.host}:${opts.port}`));
  }
}
