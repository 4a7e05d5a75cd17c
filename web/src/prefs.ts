// The player's own settings, kept in localStorage: sound, large print and the auto options.
import { parseAction } from "./notation";

export interface Prefs {
  muted: boolean;
  large: boolean;
  /** 自动胡: take every win offered. */
  autoWin: boolean;
  /** 不碰不杠: pass every claim window that offers no win. */
  noClaims: boolean;
  /** 摸切: discard the drawn piece when nothing else is offered. */
  tsumogiri: boolean;
  /** After declaring ready, discard each drawn piece that does not win. */
  autoAfterReady: boolean;
  /** Seconds a bot takes over its own move at this device's tables (null: the server's). */
  botPace: number | null;
}

/** The bot-pace choices: 快 / 中 / 慢, in seconds per bot move (and the server's own). */
export const BOT_PACES: { key: string; seconds: number | null }[] = [
  { key: "pace.default", seconds: null },
  { key: "pace.fast", seconds: 0.3 },
  { key: "pace.normal", seconds: 0.8 },
  { key: "pace.slow", seconds: 1.6 },
];

/** The ``pace`` message for these settings. */
export function paceMessage(p: Prefs): { type: "pace"; bot_seconds: number | null } {
  return { type: "pace", bot_seconds: p.botPace };
}

export const DEFAULT_PREFS: Prefs = {
  muted: false,
  large: false,
  autoWin: false,
  noClaims: false,
  tsumogiri: false,
  autoAfterReady: true,
  botPace: null,
};

const KEY = "paiju.prefs";

export function loadPrefs(): Prefs {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) {
      const p: Prefs = { ...DEFAULT_PREFS, ...JSON.parse(raw) };
      // a pace this version does not offer (or a damaged one) is the server's own
      if (!BOT_PACES.some((c) => c.seconds === p.botPace)) p.botPace = null;
      return p;
    }
  } catch {
    /* no storage or a damaged value: the defaults */
  }
  return { ...DEFAULT_PREFS };
}

export function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    /* private mode: the settings last while the page is open */
  }
}

/**
 * The move the auto options make for ``legal`` (or null: the player decides). ``drawn`` is the
 * piece just drawn, ``ready`` whether the seat has declared ready.
 */
export function autoAction(p: Prefs, legal: string[], drawn: string | null, ready: boolean): string | null {
  if (!legal.length) return null;
  const win = legal.find((a) => a === "hu" || a === "zimo");
  if (win && p.autoWin) return win;
  if (win) return null;
  if (legal.includes("pass") && p.noClaims) return "pass";
  const discard = legal.find((a) => {
    const read = parseAction(a);
    return read?.verb === "d" && read.piece === drawn;
  });
  if (drawn && discard) {
    const onlyDiscards = legal.every((a) => ["d", "ting"].includes(parseAction(a)?.verb ?? ""));
    if ((p.tsumogiri && onlyDiscards) || (ready && p.autoAfterReady)) return discard;
  }
  return null;
}
