// The client's picture of a room, built only from server messages (docs/protocol.md).
// Pure functions, so the unit tests can feed recorded messages through them.

import type { Clock, FairInfo, MatchEnd, MatchState, RoomInfo, SeatEvent, SeatInfo, SeatView, ServerMessage, Snapshot, Update } from "./schema/server-messages";
import { eventsOf, firstEvent, type EventOf, type Explanation } from "./view";

// Rooms and seats are the server's own message types, generated from its JSON Schema
// (web/src/schema, ``npm run schema-types``): never written twice.
export type { RoomInfo, SeatInfo };

export interface TimerInfo {
  seat: number;
  remaining_ms: number;
  bank_ms: number;
  base_ms: number;
  /** Local clock (ms, performance.now()) when the whole time including the bank runs out. */
  ends_at: number;
}

/** The match as the page knows it: the server's whole state, or (a replay, a review) the
 * totals only. */
export type MatchSoFar = Pick<MatchState, "totals"> & Partial<MatchState>;

export interface GameInfo {
  turn: number;
  hand: number | null;
  state: SeatView;
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
  events: SeatEvent[];
  state: SeatView;
  /** Milliseconds from this message to the next deal (when the server says). */
  next_hand_ms: number | null;
  /** Local clock (performance.now()) when the hand_end arrived. */
  received_at: number;
  /** The rules' explanation of the settlement, when the server sends one. */
  explanation: Explanation | null;
}

export interface ClientState {
  connected: boolean;
  room: RoomInfo | null;
  seat: number | null;
  host: boolean;
  game: GameInfo | null;
  match: MatchSoFar | null;
  handEvents: SeatEvent[];
  settlement: Settlement | null;
  /** The previous hand's settlement, kept readable after the next deal. */
  lastSettlement: Settlement | null;
  matchEnd: MatchEnd | null;
  error: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  notice: string | null;
  /** The person gave the seat to a bot (``leave``); the seat token brings them back. */
  left: boolean;
  /** The room's fair deal as first shown to this client (the commitment to check at the end). */
  fairShown: FairInfo | null;
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
    fairShown: null,
  };
}

/** The first ``fair`` this client saw for the room, or the new room's when it changes. */
function fairSeen(s: ClientState, room: RoomInfo | null | undefined): FairInfo | null {
  const fair = room?.fair ?? null;
  if (!fair) return s.fairShown;
  if (s.fairShown && s.fairShown.room === fair.room && s.fairShown.commitment === fair.commitment) {
    // the seeds are fixed at the start: keep the latest list, the first commitment
    return { ...fair, commitment: s.fairShown.commitment };
  }
  return s.fairShown && s.fairShown.room === fair.room ? s.fairShown : fair;
}

function timers(raw: Clock[] | undefined, now: number): TimerInfo[] {
  return (raw ?? []).map((t) => ({
    seat: t.seat,
    remaining_ms: t.remaining_ms,
    bank_ms: t.bank_ms,
    base_ms: t.base_ms,
    ends_at: now + t.remaining_ms,
  }));
}

function gameFrom(msg: Snapshot | Update, now: number): GameInfo {
  return {
    turn: msg.turn ?? 0,
    hand: msg.hand ?? null,
    state: msg.state ?? { phase: "between_hands" },
    legal: msg.legal ?? [],
    to_act: msg.to_act ?? [],
    timers: timers(msg.timers, now),
  };
}

/** The recent events a view (``state``, a ``SeatView`` of the generated schema) carries;
 * a view between hands has none. */
function viewEvents(state: SeatView | null | undefined): SeatEvent[] {
  return state && "events" in state ? (state.events ?? []) : [];
}

/** The state after one server message; ``now`` is the local clock in ms. */
export function applyMessage(s: ClientState, msg: ServerMessage, now: number): ClientState {
  switch (msg.type) {
    case "welcome":
      return { ...s, connected: true, error: null };
    case "room":
      return { ...s, room: msg.room, seat: msg.you?.seat ?? null, host: !!msg.you?.host, fairShown: fairSeen(s, msg.room) };
    case "snapshot": {
      const next: ClientState = { ...s, room: msg.room, seat: msg.seat ?? null, left: false, fairShown: fairSeen(s, msg.room) };
      if (msg.turn !== undefined) {
        next.game = gameFrom(msg, now);
        next.match = msg.match ?? s.match;
        // a snapshot carries only the view's recent events; keep what we saw if it is the same hand
        if (!s.game || s.game.hand !== msg.hand) next.handEvents = viewEvents(msg.state);
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
      // the hand's last update carried the end event; a seat that joined late has only the view's
      let events = s.handEvents;
      if (!events.some((e) => e.type === "end")) events = events.concat(viewEvents(msg.state));
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
          state: msg.state ?? { phase: "between_hands" },
          next_hand_ms: typeof msg.next_hand_ms === "number" ? msg.next_hand_ms : null,
          received_at: now,
          explanation: firstEvent(events, "end")?.explanation ?? null,
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
export function settlementParts(events: SeatEvent[]): {
  win: EventOf<"win"> | null;
  scores: EventOf<"score">[];
  payments: EventOf<"payment">[];
  exhausted: boolean;
} {
  return {
    win: eventsOf(events, "win").pop() ?? null,
    scores: eventsOf(events, "score"),
    payments: eventsOf(events, "payment"),
    exhausted: events.some((e) => e.type === "exhaustive_draw" || e.type === "exhausted"),
  };
}

/** Whose seat is at which side of the table, seen from ``me`` (bottom). */
export function sides(n: number, me: number): Record<"bottom" | "right" | "top" | "left", number | null> {
  if (n === 3) return { bottom: me, right: (me + 1) % 3, top: null, left: (me + 2) % 3 };
  return { bottom: me, right: (me + 1) % 4, top: (me + 2) % 4, left: (me + 3) % 4 };
}
