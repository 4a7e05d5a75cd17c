// What the table's events mean for the page: the last discard, the dice, callouts on the
// claiming seat, sounds and one line each for the aria-live region. Pure functions.
import { anyPieceName } from "./faces";
import { joinList, tr, type Lang } from "./i18n";
import { signed } from "./names";
import type { Cue } from "./sound";
import { EVENT_VERBS } from "./schema/grammar";
import type { SeatEvent } from "./schema/server-messages";
import { eventPiece } from "./view";

export { eventPiece };

const TAKES = new Set(["pong", "kong", "chi", "win", "added_kong", "concealed_kong"]);

/** The discard still lying in its river as the latest thing played (null once it was claimed). */
export function lastDiscard(events: SeatEvent[]): { seat: number; piece: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "discard") {
      const piece = eventPiece(e);
      return piece ? { seat: e.seat, piece } : null;
    }
    if (e.type === "pong" || e.type === "kong" || e.type === "chi" || e.type === "win") return null;
  }
  return null;
}

export function diceOf(events: SeatEvent[]): number[] | null {
  for (const e of events) if (e.type === "dice") return e.dice;
  return null;
}

/** 豹子: all dice show the same face. */
export function isLeopard(dice: number[] | null): boolean {
  return !!dice && dice.length > 1 && dice.every((d) => d === dice[0]);
}

/** The move events called out on their seat, each by the word of the action that made it
 * (EVENT_VERBS, generated from the engine's grammar); "ready" by 报听's label. */
const CALLED = ["pong", "kong", "added_kong", "concealed_kong", "chi", "knock", "takeoff", "ready"];
const CALL_KEYS: Record<string, string> = Object.fromEntries(
  CALLED.map((type) => [type, type === "ready" ? "act.tingd" : `act.${EVENT_VERBS[type]}`]),
);

export interface Callout {
  seat: number;
  text: string;
  kind: "claim" | "win" | "pay";
}

/** Callouts for new events: 碰 / 杠 / 胡 on the claiming seat, money moving during the hand. */
export function callouts(lang: Lang, events: SeatEvent[], handOver: boolean): Callout[] {
  const out: Callout[] = [];
  for (const e of events) {
    if (CALL_KEYS[e.type] && "seat" in e) {
      if (e.type === "knock" && !e.knock) continue;
      out.push({ seat: e.seat, text: tr(lang, CALL_KEYS[e.type]), kind: "claim" });
    } else if (e.type === "win") {
      for (const w of e.winners) out.push({ seat: w, text: tr(lang, e.how === "self_draw" ? "act.zimo" : "act.hu"), kind: "win" });
    } else if (e.type === "payment" && !handOver) {
      out.push({ seat: e.payee, text: signed(e.amount), kind: "pay" });
      out.push({ seat: e.payer, text: signed(-e.amount), kind: "pay" });
    }
  }
  return out;
}

export function cueFor(events: SeatEvent[]): Cue | null {
  let cue: Cue | null = null;
  for (const e of events) {
    if (e.type === "win") return "win";
    if (TAKES.has(e.type)) cue = "claim";
    else if (e.type === "payment" && cue === null) cue = "payment";
    else if (e.type === "discard" && cue === null) cue = "discard";
  }
  return cue;
}

/** One sentence for each event a listener should hear (the aria-live region). */
export function describeEvent(lang: Lang, variant: string, e: SeatEvent, name: (s: number) => string): string | null {
  const piece = eventPiece(e);
  const pn = piece ? anyPieceName(variant, piece, lang) : "";
  const who = "seat" in e ? name(e.seat) : "";
  switch (e.type) {
    case "discard":
      return tr(lang, "say.discard", { who, p: pn });
    case "pong":
    case "kong":
    case "chi":
    case "added_kong":
    case "concealed_kong":
      return tr(lang, "say.meld", { who, m: tr(lang, `meld.${e.type}`), p: pn });
    case "knock":
      return e.knock === false ? null : tr(lang, "say.knock", { who });
    case "ready":
      return tr(lang, "say.ready", { who });
    case "win":
      return tr(lang, "say.win", { who: joinList(lang, e.winners.map(name)), p: pn });
    case "exhaustive_draw":
    case "exhausted":
      return tr(lang, "settle.exhausted");
    case "payment":
      return tr(lang, "say.pay", { a: name(e.payer), b: name(e.payee), v: e.amount });
    case "draw":
      return piece ? tr(lang, "say.draw", { p: pn }) : null;
    default:
      return null;
  }
}
