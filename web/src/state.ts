// The client's picture of a room, built only from server messages (docs/protocol.md).
// Pure functions, so the unit tests can feed recorded messages through them.

export type Json = Record<string, any>;

export interface SeatInfo {
  seat: number;
  kind: "person" | "bot";
  level: string | null;
  name: string;
  taken: boolean;
  connected: boolean;
  bot_playing: boolean;
}

export interface RoomInfo {
  code: string;
  variant: string;
  n_seats: number;
  options: Json;
  status: string;
  seats: SeatInfo[];
  timers: Json;
  game_id: string | null;
  spectators: number;
}

export interface TimerInfo {
  seat: number;
  remaining_ms: number;
  bank_ms: number;
  base_ms: number;
  /** Local clock (ms, performance.now()) when the whole time including the bank runs out. */
  ends_at: number;
}

export interface GameInfo {
  turn: number;
  hand: number | null;
  state: Json;
  legal: string[];
  to_act: number[];
  timers: TimerInfo[];
}

export interface Settlement {
  hand: number;
  winners: number[];
  self_drawn: boolean;
  exhausted: boolean;
  net: number[];
  events: Json[];
  state: Json;
  /** Milliseconds from this message to the next deal (when the server says). */
  next_hand_ms: number | null;
  /** Local clock (performance.now()) when the hand_end arrived. */
  received_at: number;
  /** The rules' explanation of the settlement, when the server sends one. */
  explanation: unknown;
}

export interface ClientState {
  connected: boolean;
  room: RoomInfo | null;
  seat: number | null;
  host: boolean;
  game: GameInfo | null;
  match: Json | null;
  handEvents: Json[];
  settlement: Settlement | null;
  /** The previous hand's settlement, kept readable after the next deal. */
  lastSettlement: Settlement | null;
  matchEnd: Json | null;
  error: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  notice: string | null;
  /** The person gave the seat to a bot (``leave``); the seat token brings them back. */
  left: boolean;
}

export function initialState(): ClientState {
  return {
    connected: false,
    room: null,
    seat: null,
    host: false,
    game: null,
    match: null,
    handEvents: [],
    settlement: null,
    lastSettlement: null,
    matchEnd: null,
    error: null,
    errorCode: null,
    errorMessage: null,
    notice: null,
    left: false,
  };
}

function timers(raw: Json[] | undefined, now: number): TimerInfo[] {
  return (raw ?? []).map((t) => ({
    seat: t.seat,
    remaining_ms: t.remaining_ms,
    bank_ms: t.bank_ms,
    base_ms: t.base_ms,
    ends_at: now + t.remaining_ms,
  }));
}

function gameFrom(msg: Json, now: number): GameInfo {
  return {
    turn: msg.turn,
    hand: msg.hand ?? null,
    state: msg.state ?? {},
    legal: msg.legal ?? [],
    to_act: msg.to_act ?? [],
    timers: timers(msg.timers, now),
  };
}

/** The state after one server message; ``now`` is the local clock in ms. */
export function applyMessage(s: ClientState, msg: Json, now: number): ClientState {
  switch (msg.type) {
    case "welcome":
      return { ...s, connected: true, error: null };
    case "room":
      return { ...s, room: msg.room, seat: msg.you?.seat ?? null, host: !!msg.you?.host };
    case "snapshot": {
      const next: ClientState = { ...s, room: msg.room, seat: msg.seat ?? null, left: false };
      if (msg.turn !== undefined) {
        next.game = gameFrom(msg, now);
        next.match = msg.match ?? s.match;
        // a snapshot carries only the view's recent events; keep what we saw if it is the same hand
        if (!s.game || s.game.hand !== msg.hand) next.handEvents = msg.state?.events ?? [];
        if (msg.state?.phase !== "end") next.settlement = null;
      }
      return next;
    }
    case "seated":
      return { ...s, seat: msg.seat };
    case "hand_start":
      return {
        ...s,
        handEvents: [],
        settlement: null,
        lastSettlement: s.settlement ?? s.lastSettlement,
        notice: null,
      };
    case "update":
      return {
        ...s,
        game: gameFrom(msg, now),
        handEvents: s.handEvents.concat(msg.events ?? []),
        error: null,
      };
    case "hand_end": {
      let events = s.handEvents.concat(msg.events ?? []);
      if (!events.some((e) => e.type === "end")) events = events.concat(msg.state?.events ?? []);
      return {
        ...s,
        match: msg.match,
        settlement: {
          hand: msg.hand,
          winners: msg.winners ?? [],
          self_drawn: !!msg.self_drawn,
          exhausted: !!msg.exhausted,
          net: msg.net ?? [],
          events,
          state: msg.state ?? {},
          next_hand_ms: typeof msg.next_hand_ms === "number" ? msg.next_hand_ms : null,
          received_at: now,
          explanation: msg.explanation ?? null,
        },
        game: s.game ? { ...s.game, legal: [], to_act: [], timers: [] } : s.game,
      };
    }
    case "match_end":
      return { ...s, matchEnd: msg, match: msg.match ?? s.match };
    case "timeout":
      return { ...s, notice: `timeout:${msg.seat}:${msg.turn ?? 0}` };
    case "left":
      return { ...s, seat: null, left: true };
    case "error":
      return { ...s, error: `${msg.code}: ${msg.message}`, errorCode: msg.code ?? null, errorMessage: msg.message ?? null };
    default:
      return s;
  }
}

/** Scoring events of a settled hand, grouped for display. */
export function settlementParts(events: Json[]): {
  win: Json | null;
  scores: Json[];
  payments: Json[];
  exhausted: boolean;
} {
  const scores: Json[] = [];
  const payments: Json[] = [];
  let win: Json | null = null;
  let exhausted = false;
  for (const e of events) {
    if (e.type === "win") win = e;
    else if (e.type === "score") scores.push(e);
    else if (e.type === "payment") payments.push(e);
    else if (e.type === "exhaustive_draw") exhausted = true;
  }
  return { win, scores, payments, exhausted };
}

/** Whose seat is at which side of the table, seen from ``me`` (bottom). */
export function sides(n: number, me: number): Record<"bottom" | "right" | "top" | "left", number | null> {
  if (n === 3) return { bottom: me, right: (me + 1) % 3, top: null, left: (me + 2) % 3 };
  return { bottom: me, right: (me + 1) % 4, top: (me + 2) % 4, left: (me + 3) % 4 };
}
