import { once } from 'node:events';
import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP forwarder in front of PostgreSQL that a test can shut: while shut, new connections are
 * accepted and closed at once (as a server that is unreachable would answer them); connections
 * already through stay up until the server side ends them. `hold()` keeps back what the server sends
 * on the open connections (a lagging link) until `release()`.
 */
export class TcpGate {
  private shut = false;
  private readonly sockets = new Set<Socket>();
  private readonly links = new Set<{ client: Socket; upstream: Socket }>();

  private readonly server: Server;
  port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.forward(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpGate> {
    const gate = new TcpGate(targetHost, targetPort);
    gate.server.listen(0, '127.0.0.1');
    await once(gate.server, 'listening');
    const address = gate.server.address();
    gate.port = typeof address === 'object' && address ? address.port : 0;
    return gate;
  }

  private forward(client: Socket): void {
    if (this.shut) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const link = { client, upstream };
    this.links.add(link);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => {
      this.links.delete(link);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  }

  /** `url` (a postgres:// URL) through this gate. */
  through(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  hold(): void {
    for (const { client, upstream } of this.links) {
      upstream.unpipe(client);
      upstream.pause();
    }
  }

  release(): void {
    for (const { client, upstream } of this.links) upstream.pipe(client);
  }

  close(): void {
    this.shut = true;
  }

  open(): void {
    this.shut = false;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
