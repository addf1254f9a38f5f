/**
 * A forwarding proxy on a free loopback port, as a CI runner's: CONNECT tunnels (https://) and
 * absolute-URI requests (http://), each counted. With `credentials` it asks for them as a proxy
 * does (407 without the right Proxy-Authorization). It notes the local port of every connection
 * it opens to a target, so that a target can tell which of its connections came through it.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { listenOnLoopback } from '../../foreign/loopback-listen.ts';

export interface ForwardProxy {
  /** http://127.0.0.1:PORT, or with `user:password@` when it asks for credentials. */
  url: string;
  /** host:port of every CONNECT it was asked for, refused ones too. */
  tunnels: string[];
  /** The absolute URI of every plain request it was asked to forward. */
  forwarded: string[];
  /** Local ports of its connections to targets. */
  upstreamPorts: Set<number>;
  close(): Promise<void>;
}

export async function startForwardProxy(credentials?: { user: string; password: string }): Promise<ForwardProxy> {
  const expected = credentials && `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  const allowed = (headers: http.IncomingHttpHeaders) => !expected || headers['proxy-authorization'] === expected;
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const upstreamPorts = new Set<number>();
  const upstreams = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    upstreams.add(socket);
    socket.on('error', () => {});
    socket.once('connect', () => upstreamPorts.add(socket.localPort ?? 0));
    socket.once('close', () => upstreams.delete(socket));
    return socket;
  };

  const server = http.createServer((req, res) => {
    forwarded.push(req.url ?? '');
    if (!allowed(req.headers)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const target = new URL(req.url ?? '');
    const { 'proxy-authorization': _dropped, 'proxy-connection': _hop, ...headers } = req.headers;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    tunnels.push(req.url ?? '');
    client.on('error', () => {});
    if (!allowed(req.headers)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = track(
      net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      }),
    );
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  const listening = await listenOnLoopback(server);
  const port = (server.address() as AddressInfo).port;
  return {
    url: credentials ? `http://${credentials.user}:${credentials.password}@127.0.0.1:${port}` : listening.url,
    tunnels,
    forwarded,
    upstreamPorts,
    close: async () => {
      for (const socket of upstreams) socket.destroy();
      await listening.close();
    },
  };
}
