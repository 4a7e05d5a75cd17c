// What the table's events mean for the page: the last discard, the dice, callouts on the
// claiming seat, sounds and one line each for the aria-live region. Pure functions.
import { anyPieceName } from "./faces";
import { tr, type Lang } from "./i18n";
import { signed } from "./names";
import type { Cue } from "./sound";
import type { Json } from "./state";

export function eventPiece(e: Json): string | undefined {
  return e.tile ?? e.card;
}

const TAKES = new Set(["pong", "kong", "chi", "win", "added_kong", "concealed_kong"]);

/** The discard still lying in its river as the latest thing played (null once it was claimed). */
export function lastDiscard(events: Json[]): { seat: number; piece: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "discard") {
      const piece = eventPiece(e);
      return piece && typeof e.seat === "number" ? { seat: e.seat, piece } : null;
    }
    if (e.type === "pong" || e.type === "kong" || e.type === "chi" || e.type === "win") return null;
  }
  return null;
}

export function diceOf(events: Json[]): number[] | null {
  for (const e of events) if (e.type === "dice" && Array.isArray(e.dice)) return e.dice as number[];
  return null;
}

/** 豹子: all dice show the same face. */
export function isLeopard(dice: number[] | null): boolean {
  return !!dice && dice.length > 1 && dice.every((d) => d === dice[0]);
}

const CALL_KEYS: Record<string, string> = {
  pong: "act.pong",
  kong: "act.kong",
  added_kong: "act.jia",
  concealed_kong: "act.an",
  chi: "act.chi",
  knock: "act.knock",
  takeoff: "act.qifei",
  ready: "act.tingd",
};

export interface Callout {
  seat: number;
  text: string;
  kind: "claim" | "win" | "pay";
}

/** Callouts for new events: 碰 / 杠 / 胡 on the claiming seat, money moving during the hand. */
export function callouts(lang: Lang, events: Json[], handOver: boolean): Callout[] {
  const out: Callout[] = [];
  for (const e of events) {
    if (CALL_KEYS[e.type] && typeof e.seat === "number") {
      if (e.type === "knock" && !(e.knock ?? true)) continue;
      out.push({ seat: e.seat, text: tr(lang, CALL_KEYS[e.type]), kind: "claim" });
    } else if (e.type === "win") {
      const winners: number[] = e.winners ?? (typeof e.seat === "number" ? [e.seat] : []);
      for (const w of winners) out.push({ seat: w, text: tr(lang, e.how === "self_draw" ? "act.zimo" : "act.hu"), kind: "win" });
    } else if (e.type === "payment" && !handOver) {
      out.push({ seat: e.payee, text: signed(e.amount), kind: "pay" });
      out.push({ seat: e.payer, text: signed(-e.amount), kind: "pay" });
    }
  }
  return out;
}

export function cueFor(events: Json[]): Cue | null {
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
export function describeEvent(lang: Lang, variant: string, e: Json, name: (s: number) => string): string | null {
  const piece = eventPiece(e);
  const pn = piece ? anyPieceName(variant, piece, lang) : "";
  const who = typeof e.seat === "number" ? name(e.seat) : "";
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
    case "win": {
      const winners: number[] = e.winners ?? [];
      return tr(lang, "say.win", { who: winners.map(name).join("、"), p: pn });
    }
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
