// Names people read: seats (numbered from 1), scoring items (from /api/items), bot levels.
import { tr, type Lang } from "./i18n";
import type { BilingualName, ItemNames } from "./schema/server-messages";
import type { RoomInfo } from "./state";

// GET /api/items's answer, generated from the server's schema
export type { ItemNames };

export function seatName(lang: Lang, room: RoomInfo | null, seat: number, me: number | null): string {
  const info = room?.seats[seat];
  let name = info?.name || (info?.kind === "bot" ? `${tr(lang, "room.bot")} ${seat + 1}` : tr(lang, "seat.n", { n: seat + 1 }));
  if (seat === me) name += lang === "en" ? ` (${tr(lang, "room.you")})` : `（${tr(lang, "room.you")}）`;
  return name;
}

export function itemName(items: ItemNames, variant: string, id: string, fallback: string | undefined, lang: Lang): string {
  // the event's own name may carry a count ("大鬼 ×2"); keep it, translated when asked
  const row = items[variant]?.[id];
  if (lang === "zh" || !row) return fallback ?? row?.zh ?? id;
  const extra = fallback && fallback.startsWith(row.zh) ? fallback.slice(row.zh.length) : "";
  return row.en + extra;
}

const LEVEL_KEYS: Record<string, string> = { random: "bot.random", greedy: "bot.greedy", strong: "bot.strong", learned: "bot.learned" };

/** 简单 / 普通 / 强 for the server's bot levels; an unknown level shows as the server names it. */
export function botLevelName(lang: Lang, level: string | null | undefined): string {
  if (!level) return tr(lang, "room.bot");
  const key = LEVEL_KEYS[level];
  return key ? tr(lang, key) : level;
}

/** "+3", "0", "-2": a score change as people write it. */
export function signed(v: number): string {
  return v > 0 ? `+${v}` : String(v);
}

/** A text the engine or the rules give in both languages ({zh, en}) or as one string. */
export function bilingual(lang: Lang, v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string" || typeof v === "number") return String(v);
  const o = v as Partial<BilingualName>;
  return String((lang === "en" ? o.en : o.zh) ?? o.zh ?? o.en ?? "");
}

/**
 * The engine's explanation texts number seats from 0 ("座位1 和牌", "seat 0 turns…",
 * "落在座位 1, 1, 2"), as its JSON does; people see seats from 1, so each mention is
 * rewritten with ``name`` (a seat's name at the table, "座位 2" in the calculator).
 */
export function withSeatNames(lang: Lang, text: string, name: (seat: number) => string): string {
  const names = (list: string) =>
    list
      .split(", ")
      .map((d) => name(Number(d)))
      .join(lang === "en" ? ", " : "、");
  return text.replace(/座位 ?(\d+(?:, \d+)*)/g, (_m, list: string) => names(list)).replace(/\bseats? (\d+(?:, \d+)*)/g, (_m, list: string) => names(list));
}
