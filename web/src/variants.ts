// What each game is, as the server says at GET /api/variants (its generated VariantInfo):
// names, seats, house rules with their types, defaults and labels, and the bot levels a
// table offers. The lobby and the calculator build their forms from it, so they never offer
// what the server refuses.
import type { Lang } from "./i18n";
import type { OptionInfo, RestAnswers, VariantInfo as VariantAnswer } from "./schema/server-messages";

/** An option as the forms use it. */
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

/** A game as the pages use it (from the server's ``VariantInfo``). */
export interface VariantInfo {
  name: string;
  names: { zh: string; en: string } | null;
  seats: number;
  pieces: "tiles" | "cards";
  options: OptionField[];
  /** The bot levels this server seats at its tables. */
  bots: string[];
  defaultBot: string | null;
  /** The bot levels' own names. */
  botNames: Record<string, { zh: string; en: string }>;
  /** The option that sets the number of seats (Qing'er's participants), if any. */
  seatsOption: string | null;
  /** Where the rule book is served (rule ids link into it). */
  ruleBook: string | null;
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

function normalizeField(f: OptionInfo): OptionField {
  const choices = f.choices.length ? f.choices : null;
  return {
    name: f.name,
    // a choice the server lists no values for is typed in as text
    type: choices ? "choice" : f.type === "choice" ? "str" : f.type,
    default: f.default,
    optional: f.nullable,
    label: { zh: f.label.zh, en: f.label.en },
    rule: f.rule || null,
    choices,
    min: f.minimum,
    max: f.maximum,
  };
}

/** One entry of /api/variants as the pages use it. */
export function normalizeVariant(v: VariantAnswer): VariantInfo {
  const bots = v.bots.server;
  return {
    name: v.name,
    names: { zh: v.names.zh, en: v.names.en },
    seats: v.seats,
    pieces: v.pieces,
    options: v.options.map(normalizeField),
    bots,
    defaultBot: bots.includes(v.bots.default) ? v.bots.default : bots.includes("greedy") ? "greedy" : (bots[0] ?? null),
    botNames: Object.fromEntries(Object.entries(v.bots.names).map(([level, n]) => [level, { zh: n.zh, en: n.en }])),
    seatsOption: v.seats_option,
    // a web address as it is; a book of the repository is served at /rules/<game>
    ruleBook: /^https?:\/\//.test(v.rule_book) ? v.rule_book : `/rules/${v.name}`,
    itemRules: Object.fromEntries(v.items.filter((it) => it.seed).map((it) => [it.id, it.seed])),
    profiles: v.profiles.map((p) => ({ name: p.name, version: p.version, options: p.options, label: { zh: p.zh, en: p.en } })),
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
export function changedOptions(fields: OptionField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
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
export function profileOptions(fields: OptionField[], profile: Profile | null, values: Record<string, unknown>): Record<string, unknown> {
  if (!profile) return changedOptions(fields, values);
  const out: Record<string, unknown> = { profile: profile.name };
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
  const list = (await r.json()) as RestAnswers["GET /api/variants"];
  return list.map(normalizeVariant);
}
