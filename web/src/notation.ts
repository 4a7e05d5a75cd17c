// Tile and card notation (docs: spec/notation.md): digits or ranks followed by a suit letter,
// consecutive ones sharing the letter. The server sends views in this notation.
import { VERBS } from "./schema/grammar";

export type Piece = string; // "5m", "7z", "3f" for tiles; "5s", "Jh", "Qc", "BJ", "SJ", "AD" for cards

const TILE_SUITS = "mpszf";
const CARD_SUITS = "shc";

export class NotationError extends Error {}

/** "16889m7p 11z" → ["1m","6m","8m","8m","9m","7p","1z","1z"]. */
export function parseTiles(text: string): Piece[] {
  const out: Piece[] = [];
  let digits: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === " ") continue;
    if (ch >= "0" && ch <= "9") {
      digits.push(ch);
    } else if (TILE_SUITS.includes(ch)) {
      if (digits.length === 0) throw new NotationError(`suit '${ch}' without digits at ${i}`);
      for (const d of digits) out.push(d + ch);
      digits = [];
    } else {
      throw new NotationError(`unexpected '${ch}' at ${i} in ${JSON.stringify(text)}`);
    }
  }
  if (digits.length) throw new NotationError(`digits without a suit in ${JSON.stringify(text)}`);
  return out;
}

/** "17789s JJh QQhQc BJBJAD" → ["1s","7s",…,"Jh","Jh","Qh","Qh","Qc","BJ","BJ","AD"]. */
export function parseCards(text: string): Piece[] {
  const out: Piece[] = [];
  let ranks: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === " ") continue;
    const pair = text.slice(i, i + 2);
    if (pair === "BJ" || pair === "SJ" || pair === "AD") {
      if (ranks.length) throw new NotationError(`ranks without a suit before ${pair} at ${i}`);
      out.push(pair);
      i++;
    } else if ("123456789JQK".includes(ch)) {
      ranks.push(ch);
    } else if (CARD_SUITS.includes(ch)) {
      if (ranks.length === 0) throw new NotationError(`suit '${ch}' without ranks at ${i}`);
      for (const r of ranks) out.push(r + ch);
      ranks = [];
    } else {
      throw new NotationError(`unexpected '${ch}' at ${i} in ${JSON.stringify(text)}`);
    }
  }
  if (ranks.length) throw new NotationError(`ranks without a suit in ${JSON.stringify(text)}`);
  return out;
}

export function isCardVariant(variant: string | undefined): boolean {
  return variant === "qinger";
}

export function parsePieces(variant: string | undefined, text: string | undefined | null): Piece[] {
  if (!text) return [];
  return isCardVariant(variant) ? parseCards(text) : parseTiles(text);
}

const TILE_ORDER: Record<string, number> = { m: 0, p: 1, s: 2, z: 3, f: 4 };
const CARD_SUIT_ORDER: Record<string, number> = { s: 0, h: 1, c: 2 };
const CARD_RANKS = "123456789JQK";
const JOKER_ORDER: Record<string, number> = { BJ: 0, SJ: 1, AD: 2 };

/**
 * A sort key for one game's pieces (the same letter means 索 in a tile and ♠ in a card, so the
 * key must know which). Tiles: 万 → 筒 → 索 → winds and dragons → flowers. Qing'er cards:
 * ♠ → ♥ → ♣ by rank, then the faces (J, Q, K, each ♥ before ♣), then the jokers and the advert.
 */
export function pieceKey(variant: string | undefined, p: Piece): number {
  if (isCardVariant(variant)) {
    if (p in JOKER_ORDER) return 400 + JOKER_ORDER[p];
    const r = CARD_RANKS.indexOf(p[0]);
    const suit = CARD_SUIT_ORDER[p[1]] ?? 3;
    if (r >= 9) return 300 + (r - 9) * 4 + suit;
    return suit * 100 + r;
  }
  return (TILE_ORDER[p[1]] ?? 5) * 10 + Number(p[0]);
}

export interface SortOptions {
  /** A suit letter the player is dropping (Taixing 缺门): its tiles go to the end, apart. */
  aside?: string | null;
}

/** ``pieces`` in the order a player of ``variant`` reads them (a new array). */
export function sortPieces(variant: string | undefined, pieces: Piece[], opts: SortOptions = {}): Piece[] {
  const aside = opts.aside && !isCardVariant(variant) ? opts.aside : null;
  const key = (p: Piece) => pieceKey(variant, p) + (aside && p[1] === aside ? 1000 : 0);
  return pieces.slice().sort((a, b) => key(a) - key(b));
}

/** Move the piece at ``from`` to index ``to`` (the player's own arrangement; a new array). */
export function movePiece(pieces: Piece[], from: number, to: number): Piece[] {
  if (from === to || from < 0 || from >= pieces.length) return pieces.slice();
  const out = pieces.slice();
  const [p] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(to, out.length)), 0, p);
  return out;
}

/**
 * Keep a player's own arrangement across updates: the pieces still held stay in the order
 * the player left them, new ones go where the sort puts them. ``arranged`` is the previous
 * order (may hold pieces since played), ``sorted`` the current hand sorted.
 */
export function keepArrangement(arranged: Piece[] | null, sorted: Piece[], key: (p: Piece) => number): Piece[] {
  if (!arranged || arranged.length === 0) return sorted;
  const left = sorted.slice();
  const kept: Piece[] = [];
  for (const p of arranged) {
    const i = left.indexOf(p);
    if (i >= 0) {
      kept.push(p);
      left.splice(i, 1);
    }
  }
  for (const p of left) {
    // after the last kept piece whose key is not larger
    let at = kept.length;
    for (let i = kept.length - 1; i >= 0; i--) {
      if (key(kept[i]) <= key(p)) {
        at = i + 1;
        break;
      }
      at = i;
    }
    kept.splice(at, 0, p);
  }
  return kept;
}

/** Remove one copy of ``piece`` from ``pieces`` (returns a new array). */
export function withoutOne(pieces: Piece[], piece: Piece): Piece[] {
  const i = pieces.indexOf(piece);
  if (i < 0) return pieces.slice();
  return pieces.slice(0, i).concat(pieces.slice(i + 1));
}

/** An action string read by the engine's grammar (schema/grammar.ts, generated from
 * paiju.engine.grammar): its word and the piece written after it ("" for a bare word);
 * null for a string that is no action word. */
export function parseAction(action: string): { verb: string; piece: string } | null {
  for (const v of VERBS) {
    if (action === v.word && v.piece !== "required") return { verb: v.word, piece: "" };
    if (v.piece !== "none" && action.length > v.word.length && action.startsWith(v.word)) {
      return { verb: v.word, piece: action.slice(v.word.length) };
    }
  }
  return null;
}

/** The piece an action string names: "d5m" → "5m", "an5m" → "5m", "anK" → "Kh", "ting3s" → "3s"
 * (a chow's "chi1" names the discard's place in the run, not a piece: null). */
export function actionPiece(action: string): Piece | null {
  const read = parseAction(action);
  if (!read || !read.piece || read.verb === "chi") return null;
  // a Qing'er face kind is written by its rank; the face shown is the heart's
  if (read.piece === "J" || read.piece === "Q" || read.piece === "K") return read.piece + "h";
  return read.piece;
}

/** The label key of an action string: its word ("d5m" → "d", "an5m" → "an", "pass"), with
 * a chow's place ("chi1") and "tingd" for a discard that declares ready ("ting3s"). */
export function actionVerb(action: string): string {
  const read = parseAction(action);
  if (!read) return action;
  if (read.verb === "ting" && read.piece) return "tingd";
  if (read.verb === "chi") return action;
  return read.verb;
}

/** The tiles of a mahjong meld from the view's {type, tile}. */
export function mahjongMeldTiles(type: string, tile: string): Piece[] {
  if (type === "chi") {
    const n = Number(tile[0]);
    return [0, 1, 2].map((k) => `${n + k}${tile[1]}`);
  }
  const size = type === "pong" ? 3 : 4;
  return Array.from({ length: size }, () => tile);
}
