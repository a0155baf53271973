import { backoffDelay } from "../lib/backoff";
import type { Envelope } from "./types";

/** Status of the WebSocket connection as the UI shows it. */
export type ConnStatus = "connecting" | "open" | "reconnecting";

/** SocketLike is the part of the browser WebSocket the client uses (tests pass a fake). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ClientOptions {
  url: string;
  /** onMessage receives every server envelope, in order. */
  onMessage(env: Envelope): void;
  /** onStatus follows the connection state. */
  onStatus(s: ConnStatus): void;
  /** onOpen runs on every (re)connection before queued messages are sent. */
  onOpen(send: (type: string, payload?: unknown) => void, reconnect: boolean): void;
  connect?: (url: string) => SocketLike;
  delay?: (attempt: number) => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  /** outboxLimit bounds the messages kept while disconnected (oldest dropped). */
  outboxLimit?: number;
}

const OPEN = 1;

/**
 * Client is the workbench's one WebSocket to `/ws`: it connects, reconnects
 * with backoff when the connection drops (a server restart), and keeps what
 * the user sends while disconnected in a bounded outbox sent after the
 * reconnection's onOpen (hello, session:resume, state requests).
 */
export class Client {
  private sock: SocketLike | null = null;
  private attempt = 0;
  private opened = false;
  private closed = false;
  private outbox: string[] = [];
  private seq = 0;
  constructor(private readonly o: ClientOptions) {}

  /** start opens the first connection. */
  start(): void {
    this.o.onStatus("connecting");
    this.dial();
  }

  /** stop closes the connection for good. */
  stop(): void {
    this.closed = true;
    this.sock?.close(1000);
  }

  /** send sends a message now, or after reconnecting; it returns the message id. */
  send(type: string, payload: unknown = {}): string {
    const id = `c${++this.seq}`;
    const frame = JSON.stringify({ type, payload, id });
    if (this.sock && this.sock.readyState === OPEN) this.sock.send(frame);
    else {
      this.outbox.push(frame);
      const limit = this.o.outboxLimit ?? 200;
      if (this.outbox.length > limit) this.outbox.splice(0, this.outbox.length - limit);
    }
    return id;
  }

  private dial(): void {
    const connect = this.o.connect ?? ((u: string) => new WebSocket(u) as unknown as SocketLike);
    const sock = connect(this.o.url);
    this.sock = sock;
    sock.onopen = () => {
      const reconnect = this.opened;
      this.opened = true;
      this.attempt = 0;
      this.o.onStatus("open");
      const direct = (type: string, payload: unknown = {}) => sock.send(JSON.stringify({ type, payload, id: `c${++this.seq}` }));
      this.o.onOpen(direct, reconnect);
      const queued = this.outbox;
      this.outbox = [];
      for (const f of queued) sock.send(f);
    };
    sock.onmessage = (ev) => {
      if (typeof ev.data !== "string") return;
      let env: Envelope;
      try {
        env = JSON.parse(ev.data) as Envelope;
      } catch {
        return;
      }
      if (env && typeof env.type === "string") this.o.onMessage({ ...env, payload: env.payload ?? {} });
    };
    sock.onerror = () => {};
    sock.onclose = () => {
      if (this.sock !== sock || this.closed) return;
      this.sock = null;
      this.o.onStatus("reconnecting");
      const wait = (this.o.delay ?? backoffDelay)(this.attempt++);
      (this.o.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)))(() => this.dial(), wait);
    };
  }
}

/** wsURL is the /ws address of the page's own server. */
export function wsURL(path = "/ws", loc: Location = window.location): string {
  return `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${path}`;
}
