// The player's own settings, kept in localStorage: sound, large print and the auto options.

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
}

export const DEFAULT_PREFS: Prefs = {
  muted: false,
  large: false,
  autoWin: false,
  noClaims: false,
  tsumogiri: false,
  autoAfterReady: true,
};

const KEY = "paiju.prefs";

export function loadPrefs(): Prefs {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) return { ...DEFAULT_PREFS, ...JSON.parse(raw) };
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
  if (drawn && legal.includes(`d${drawn}`)) {
    const onlyDiscards = legal.every((a) => /^d[0-9JQKBSA]/.test(a) || a.startsWith("ting"));
    if ((p.tsumogiri && onlyDiscards) || (ready && p.autoAfterReady)) return `d${drawn}`;
  }
  return null;
}
