// What each game is, as the server says at GET /api/variants: names, seats, house rules with
// their types, defaults and labels, and the bot levels a table offers. The lobby and the
// calculator build their forms from it, so they never offer what the server refuses.
import type { Lang } from "./i18n";
import type { Json } from "./state";

export interface OptionField {
  name: string;
  type: "bool" | "int" | "float" | "str" | "choice";
  default: unknown;
  optional: boolean;
  label: { zh: string; en: string } | null;
  rule: string | null;
  choices: unknown[] | null;
  min: number | null;
  max: number | null;
}

export interface VariantInfo {
  name: string;
  names: { zh: string; en: string } | null;
  seats: number;
  pieces: "tiles" | "cards";
  options: OptionField[];
  bots: string[];
  defaultBot: string | null;
  /** The bot levels' own names, when the server gives them. */
  botNames: Record<string, { zh: string; en: string }>;
  /** The option that sets the number of seats (Qing'er's participants), if any. */
  seatsOption: string | null;
  /** Where the rule book is, when it is a web address (rule ids link into it). */
  ruleBook: string | null;
  /** The calculator's win flags for this game, when the server lists them. */
  flags: string[] | null;
  /** Each scoring item's rule-book ids ("J5, J27"), by item id. */
  itemRules: Record<string, string>;
  /** Named, versioned sets of option values (the seed's defaults first). */
  profiles: Profile[];
}

export interface Profile {
  name: string;
  version: number;
  options: Record<string, unknown>;
  label: { zh: string; en: string };
}

function fieldType(t: unknown, value: unknown, choices: unknown): OptionField["type"] {
  if (Array.isArray(choices) && choices.length) return "choice";
  const s = String(t ?? "").toLowerCase();
  if (s.startsWith("bool")) return "bool";
  if (s.startsWith("int")) return "int";
  if (s.startsWith("float") || s === "number") return "float";
  if (s.startsWith("str") || s === "literal" || s === "choice") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (value === null) return "int";
  return "str";
}

function label(v: unknown): { zh: string; en: string } | null {
  if (!v) return null;
  if (typeof v === "string") return { zh: v, en: v };
  const o = v as Json;
  if (typeof o.zh === "string" || typeof o.en === "string") return { zh: o.zh ?? o.en, en: o.en ?? o.zh };
  return null;
}

function normalizeField(f: Json): OptionField {
  const choices = Array.isArray(f.choices) && f.choices.length ? f.choices : null;
  return {
    name: String(f.name),
    type: fieldType(f.type, f.default, choices),
    default: f.default ?? null,
    optional: !!(f.optional ?? f.nullable ?? f.default === null),
    label: label(f.label ?? (f.zh || f.en ? { zh: f.zh, en: f.en } : null)),
    rule: f.rule ?? f.rule_id ?? f.rule_book ?? null,
    choices,
    min: typeof (f.minimum ?? f.min) === "number" ? (f.minimum ?? f.min) : null,
    max: typeof (f.maximum ?? f.max) === "number" ? (f.maximum ?? f.max) : null,
  };
}

/** One entry of /api/variants in one shape; accepts the options as a field list or as a
 * mapping of defaults (the older form, which carries no labels or choices). */
export function normalizeVariant(v: Json): VariantInfo {
  let options: OptionField[] = [];
  const raw = v.option_fields ?? v.fields ?? v.options;
  if (Array.isArray(raw)) options = raw.map(normalizeField);
  else if (raw && typeof raw === "object") options = Object.entries(raw).map(([name, d]) => normalizeField({ name, default: d }));
  // the bots: a list of levels, or {levels, server, default, names} (the server's own first)
  const botInfo: Json = v.bots && !Array.isArray(v.bots) ? v.bots : {};
  const rawBots = botInfo.server ?? botInfo.levels ?? v.server_bot_levels ?? v.bots ?? v.bot_levels ?? [];
  const bots: string[] = (Array.isArray(rawBots) ? rawBots : []).map((b: unknown) => (typeof b === "string" ? b : String((b as Json).name)));
  const botNames: Record<string, { zh: string; en: string }> = {};
  for (const [k, n] of Object.entries((botInfo.names ?? {}) as Json)) {
    const l = label(n);
    if (l) botNames[k] = l;
  }
  const seats = typeof v.seats === "number" ? v.seats : (v.n_seats ?? v.seats?.default ?? 4);
  return {
    name: String(v.name),
    names: label(v.names),
    seats,
    pieces: v.pieces === "cards" ? "cards" : v.pieces === "tiles" ? "tiles" : v.name === "qinger" ? "cards" : "tiles",
    options,
    bots,
    defaultBot: (bots.includes(botInfo.default) ? botInfo.default : null) ?? v.default_bot ?? (bots.includes("greedy") ? "greedy" : (bots[0] ?? null)),
    botNames,
    seatsOption: typeof v.seats_option === "string" ? v.seats_option : null,
    // a web address as it is; a book of the repository is served at /rules/<game>
    ruleBook: typeof v.rule_book === "string" ? (/^https?:\/\//.test(v.rule_book) ? v.rule_book : `/rules/${v.name}`) : null,
    itemRules: Object.fromEntries(
      (Array.isArray(v.items) ? v.items : []).filter((it: Json) => it.id && it.seed).map((it: Json) => [String(it.id), String(it.seed)]),
    ),
    flags: Array.isArray(v.calculator_flags ?? v.flags) ? (v.calculator_flags ?? v.flags).map(String) : null,
    profiles: (Array.isArray(v.profiles) ? v.profiles : []).map((p: Json) => ({
      name: String(p.name),
      version: typeof p.version === "number" ? p.version : 1,
      options: p.options && typeof p.options === "object" ? p.options : {},
      label: label({ zh: p.zh ?? p.name, en: p.en ?? p.name })!,
    })),
  };
}

/** The seats a table has with these option values (the seats option, when the game has one). */
export function seatCount(v: VariantInfo, values: Record<string, unknown>): number {
  if (v.seatsOption) {
    const f = v.options.find((o) => o.name === v.seatsOption);
    const n = v.seatsOption in values ? values[v.seatsOption] : f?.default;
    if (typeof n === "number" && n > 0) return n;
  }
  return v.seats;
}

export function variantName(lang: Lang, v: VariantInfo, fallback: string): string {
  if (!v.names) return fallback;
  return lang === "en" ? v.names.en : v.names.zh;
}

/** The options object to send: only the fields that differ from their defaults. */
export function changedOptions(fields: OptionField[], values: Record<string, unknown>): Json {
  const out: Json = {};
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const v = values[f.name];
    if (v !== f.default) out[f.name] = v;
  }
  return out;
}

/**
 * The options object for a table of ``profile`` (null: the defaults) with the player's own
 * values: the profile by name, and beside it only the values that differ from the profile's
 * (the server applies the profile first, then these).
 */
export function profileOptions(fields: OptionField[], profile: Profile | null, values: Record<string, unknown>): Json {
  if (!profile) return changedOptions(fields, values);
  const out: Json = { profile: profile.name };
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const base = f.name in profile.options ? profile.options[f.name] : f.default;
    if (values[f.name] !== base) out[f.name] = values[f.name];
  }
  return out;
}

/** A field's value from its form text; throws with the field's name when it does not parse. */
export function parseField(f: OptionField, text: string): unknown {
  if (f.type === "bool") return text === "true";
  if (text.trim() === "" && f.optional) return null;
  if (f.type === "int" || f.type === "float") {
    const n = Number(text);
    if (!Number.isFinite(n) || (f.type === "int" && !Number.isInteger(n))) throw new Error(f.name);
    return n;
  }
  return text;
}

/** The address of a rule-book entry: the book and the first id of ``ids`` ("J5, J27"). */
export function ruleLink(book: string | null | undefined, ids: string | null | undefined): string | null {
  const m = /[A-Z]{1,2}\d+/.exec(ids ?? "");
  return book && m ? `${book}#${m[0].toLowerCase()}` : null;
}

let once: Promise<VariantInfo[]> | null = null;

/** /api/variants, asked once per page (the table and the settlement read it too). */
export function variantsOnce(): Promise<VariantInfo[]> {
  once ??= fetchVariants().catch((e) => {
    once = null;
    throw e;
  });
  return once;
}

export async function fetchVariants(): Promise<VariantInfo[]> {
  const r = await fetch("/api/variants");
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  const body = await r.json();
  const list: Json[] = Array.isArray(body) ? body : (body.variants ?? []);
  return list.map(normalizeVariant);
}
