// One websocket to the server, reopened after a drop; on every (re)open it rejoins the room it
// was in, by seat token when it holds one (the server then sends a full snapshot).
import { newClientSeed } from "./fair";
import type { ClientMessage } from "./schema/client-messages";
import type { ServerMessage } from "./schema/server-messages";

export function tokenKey(code: string): string {
  return `paiju.token.${code.toUpperCase()}`;
}

export function savedToken(code: string): string | null {
  try {
    return localStorage.getItem(tokenKey(code));
  } catch {
    return null;
  }
}

export function saveToken(code: string, token: string): void {
  try {
    localStorage.setItem(tokenKey(code), token);
  } catch {
    /* private mode: reconnect works only while the page stays open */
  }
}

/** The fair-deal seed this browser sent for the seat it holds in room ``code`` (kept so
 * that the 验证 panel can check, after a reload too, that the deal used it). */
export function savedSeed(code: string): string | null {
  try {
    return localStorage.getItem(`paiju.seed.${code.toUpperCase()}`);
  } catch {
    return null;
  }
}

function saveSeed(code: string, seed: string): void {
  try {
    localStorage.setItem(`paiju.seed.${code.toUpperCase()}`, seed);
  } catch {
    /* private mode: the panel checks the seed only while the page stays open */
  }
}

/** How often the client pings (ms); a socket silent for three of these is taken for dead.
 * ``localStorage["paiju.heartbeat_ms"]`` shortens it (the browser tests do). */
export function heartbeatMs(): number {
  try {
    const v = Number(localStorage.getItem("paiju.heartbeat_ms"));
    if (Number.isFinite(v) && v >= 100) return v;
  } catch {
    /* no storage */
  }
  return 10_000;
}

export type Status = "open" | "closed" | "dead";

export class Connection {
  private ws: WebSocket | null = null;
  private heard = 0;
  private beat: ReturnType<typeof setInterval> | null = null;
  private closedByUs = false;
  private retry = 0;
  private queue: ClientMessage[] = [];
  /** The room to rejoin on every open (null: none). */
  room: string | null = null;
  /** This page's contribution to every fair deal it takes a seat in (docs/protocol.md). */
  readonly clientSeed: string = newClientSeed();

  constructor(
    private onMessage: (msg: ServerMessage) => void,
    private onStatus: (open: boolean, why?: Status) => void,
  ) {}

  /** Ping on a timer; a socket that has said nothing for three beats is closed and reopened
   * (a half-open connection never fires ``onclose`` by itself). */
  private startHeartbeat(ws: WebSocket): void {
    this.stopHeartbeat();
    const every = heartbeatMs();
    this.heard = performance.now();
    this.beat = setInterval(() => {
      if (this.ws !== ws) return;
      if (performance.now() - this.heard > 3 * every) {
        this.stopHeartbeat();
        this.ws = null;
        this.onStatus(false, "dead");
        try {
          ws.close();
        } catch {
          /* already closing */
        }
        setTimeout(() => this.open(), 200);
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, type: "ping", t: Date.now() }));
    }, every);
  }

  private stopHeartbeat(): void {
    if (this.beat !== null) clearInterval(this.beat);
    this.beat = null;
  }

  open(): void {
    this.closedByUs = false;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    let heardAny = false;
    ws.onopen = () => {
      this.retry = 0;
      this.startHeartbeat(ws);
      if (this.room) this.rejoin(this.room);
      const pending = this.queue;
      this.queue = [];
      for (const m of pending) this.send(m);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.heard = performance.now();
      // connected once the server has spoken (an open socket alone may lead nowhere)
      if (!heardAny) {
        heardAny = true;
        this.onStatus(true, "open");
      }
      let msg: ServerMessage;
      try {
        // the server's messages follow its published schema (server/messages.py)
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === "seated" && msg.token && msg.code) {
        saveToken(msg.code, msg.token);
        saveSeed(msg.code, this.clientSeed);
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      this.onStatus(false, "closed");
      if (!this.closedByUs) {
        this.retry = Math.min(this.retry + 1, 5);
        setTimeout(() => this.open(), 300 * this.retry);
      }
    };
  }

  rejoin(code: string): void {
    const token = savedToken(code);
    this.sendNow(token ? { type: "reconnect", token } : { type: "join", code });
  }

  enter(code: string): void {
    this.room = code.toUpperCase();
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.rejoin(this.room);
  }

  send(msg: ClientMessage): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.sendNow(msg);
    else this.queue.push(msg);
  }

  private sendNow(msg: ClientMessage): void {
    // the fair-deal seed goes with every message that may lead to a seat
    const seeded = SEEDED.has(msg.type) && (msg as { client_seed?: string }).client_seed === undefined ? { ...msg, client_seed: this.clientSeed } : msg;
    this.ws?.send(JSON.stringify({ v: 1, ...seeded }));
  }

  /** Drop the socket as a network failure would (the reconnect path reopens it). */
  drop(): void {
    this.ws?.close();
  }

  close(): void {
    this.closedByUs = true;
    this.stopHeartbeat();
    this.ws?.close();
  }
}

/** Messages that carry this client's fair-deal seed. */
const SEEDED = new Set(["create_room", "join", "take_seat"]);
