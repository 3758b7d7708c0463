import { once } from 'node:events';
import { createServer, type Server, type Socket, connect } from 'node:net';

/** One client connection and its connection to the server. */
interface Link {
  client: Socket;
  upstream: Socket;
  /** While held: what the server sent since `hold()`, not passed on yet. */
  held: Buffer[] | undefined;
  /** The server's side closed while held: the client's is closed once the held bytes are passed on. */
  closedWhileHeld: boolean;
}

/**
 * A TCP forwarder in front of PostgreSQL that a test can shut: while shut, new connections are
 * accepted and closed at once (as a server that is unreachable would answer them); connections
 * already through stay up until the server side ends them. `hold()` keeps back what the server sends
 * on the open connections (a lagging link), its end included, until `release()` passes it on in one
 * write per connection: what the server sent over time arrives at once, as after a stalled link.
 */
export class TcpGate {
  private shut = false;
  private readonly sockets = new Set<Socket>();
  private readonly links = new Set<Link>();

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
    const link: Link = { client, upstream, held: undefined, closedWhileHeld: false };
    this.links.add(link);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (link.held) link.held.push(chunk);
      else client.write(chunk);
    });
    client.on('close', () => {
      this.links.delete(link);
      upstream.destroy();
    });
    upstream.on('close', () => {
      if (link.held) link.closedWhileHeld = true;
      else client.end(() => client.destroy());
    });
  }

  /** `url` (a postgres:// URL) through this gate. */
  through(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  hold(): void {
    for (const link of this.links) link.held ??= [];
  }

  /** What each held connection has kept back so far (one buffer per connection). */
  held(): Buffer[] {
    return [...this.links].flatMap((link) => (link.held ? [Buffer.concat(link.held)] : []));
  }

  release(): void {
    for (const link of this.links) {
      if (!link.held) continue;
      const data = Buffer.concat(link.held);
      link.held = undefined;
      if (data.length > 0) link.client.write(data);
      if (link.closedWhileHeld) link.client.end(() => link.client.destroy());
    }
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
