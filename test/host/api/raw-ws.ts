// A WebSocket client that sends and reads protocol messages as they are, for tests of what the server does
// with any sequence of them (graphql-ws's client would only send well-formed ones).

import { once } from 'node:events';
import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

export class RawClient {
  readonly messages: any[] = [];
  /** Resolves when the socket has closed, with the code and reason the server sent. */
  readonly closed: Promise<Closed>;
  private read = 0;
  private wake: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      this.wake?.();
    });
    // A socket the server cuts off reports an error before it closes.
    ws.on('error', () => {});
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake?.();
      }),
    );
  }

  /** Opens `url` offering `protocols`; resolves once the server accepted the upgrade. */
  static async open(url: string, protocols: string[]): Promise<RawClient> {
    const client = new RawClient(new WebSocket(url, protocols));
    await once(client.ws, 'open');
    return client;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message not read yet; rejects when the socket closes first or after `timeoutMs`. */
  async next(timeoutMs = 60000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.messages.length) {
      if (this.ws.readyState === WebSocket.CLOSED)
        throw new Error(`the socket closed; messages: ${JSON.stringify(this.messages)}`);
      if (Date.now() > deadline)
        throw new Error(`no message in ${timeoutMs} ms; messages: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return this.messages[this.read++];
  }

  /** Reads messages until one matches; returns it. */
  async nextWhere(matches: (message: any) => boolean, timeoutMs = 60000): Promise<any> {
    for (;;) {
      const message = await this.next(timeoutMs);
      if (matches(message)) return message;
    }
  }

  close(): void {
    this.ws.terminate();
  }
}
