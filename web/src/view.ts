// The seat view and the events as the generated schema types them (web/src/schema), with
// the few narrowings the table needs: a view of a hand being played, a player of either
// kind of game, the piece an event names. Pure functions.
import type {
  JiaxingExplanation,
  JiaxingView,
  MahjongMeldView,
  MahjongPlayerView,
  QingerExplanation,
  QingerMeldView,
  QingerPlayerView,
  QingerView,
  SeatEvent,
  SeatView,
  TaixingExplanation,
  TaixingView,
} from "./schema/server-messages";

/** A view of a hand being played (not the one between hands). */
export type HandView = JiaxingView | TaixingView | QingerView;
export type MahjongView = JiaxingView | TaixingView;
export type PlayerView = MahjongPlayerView | QingerPlayerView;
export type MeldView = MahjongMeldView | QingerMeldView;
export type Explanation = JiaxingExplanation | TaixingExplanation | QingerExplanation;
export type EventType = SeatEvent["type"];
export type EventOf<T extends EventType> = Extract<SeatEvent, { type: T }>;

/** ``view`` when it shows a hand (its players, walls and turns), else null. */
export function handView(view: SeatView | null | undefined): HandView | null {
  return view && "players" in view ? view : null;
}

export function isQinger(view: HandView): view is QingerView {
  return view.variant === "qinger";
}

/** The events of one type, typed as that event. */
export function eventsOf<T extends EventType>(events: readonly SeatEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function firstEvent<T extends EventType>(events: readonly SeatEvent[], type: T): EventOf<T> | undefined {
  return events.find((e): e is EventOf<T> => e.type === type);
}

/** The tile (mahjong) or card (Qing'er) an event names, if it names one to this seat. */
export function eventPiece(e: SeatEvent): string | undefined {
  if ("tile" in e) return e.tile;
  if ("card" in e) return e.card;
  return undefined;
}

/** The seat that fed a meld or a win (a self-drawn win, a concealed meld: none). */
export function fedBy(e: SeatEvent): number | undefined {
  return "from" in e ? e.from : undefined;
}
