// Fair-deal checks in the browser (docs/spec/fair-deal.md, scheme paiju-fair-1), with
// WebCrypto only: the revealed server seed hashes to the commitment shown before the deal,
// and every wall in the record is the one HMAC-SHA256 and the documented shuffle give.
// Replaying the decisions against the rules is `paiju verify`'s part.

export const SCHEME = "paiju-fair-1";

import type { FairInfo, FairReveal } from "./schema/server-messages";

/** A line of a record as the check reads it (docs/spec/record.md): the header's ``fair``
 * and each ``hand_end``'s ``index`` and ``walls``. The record is a file anyone may hand
 * over, so every field is checked before use. */
export interface RecordLine {
  type?: unknown;
  fair?: { commitment?: unknown; room?: unknown; client_seeds?: unknown } | null;
  index?: unknown;
  walls?: unknown;
  [key: string]: unknown;
}

const enc = new TextEncoder();

function subtle(): SubtleCrypto {
  const c = globalThis.crypto;
  if (!c || !c.subtle) throw new Error("WebCrypto is not available (an https page is needed)");
  return c.subtle;
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error("not 64 lowercase hex digits");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A client seed as the spec says a browser makes one: 16 random bytes in base64url. */
export function newClientSeed(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return bytesToHex(await subtle().digest("SHA-256", bytes as BufferSource));
}

async function hmacKey(key: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key: CryptoKey, message: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign("HMAC", key, message as BufferSource));
}

/** The HMAC message of hand ``hand``: compact JSON (spec §2). */
export function handMessage(room: string, hand: number, clientSeeds: string[]): string {
  return JSON.stringify([SCHEME, room, hand, clientSeeds]);
}

export async function handKey(serverSeed: Uint8Array, room: string, hand: number, clientSeeds: string[]): Promise<Uint8Array> {
  return hmac(await hmacKey(serverSeed), enc.encode(handMessage(room, hand, clientSeeds)));
}

/** Stream ``label`` under a hand key: 4-byte big-endian words, uniform draws by rejection (§3). */
export class Stream {
  private block = 0;
  private buffer = new Uint8Array(0);
  private constructor(
    private key: CryptoKey,
    private label: string,
  ) {}

  static async open(handKeyBytes: Uint8Array, label: string): Promise<Stream> {
    return new Stream(await hmacKey(handKeyBytes), label);
  }

  async word(): Promise<number> {
    if (this.buffer.length < 4) {
      const more = await hmac(this.key, enc.encode(`${this.label}:${this.block}`));
      this.block += 1;
      const joined = new Uint8Array(this.buffer.length + more.length);
      joined.set(this.buffer);
      joined.set(more, this.buffer.length);
      this.buffer = joined;
    }
    const b = this.buffer;
    const value = ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3];
    this.buffer = b.slice(4);
    return value;
  }

  async below(n: number): Promise<number> {
    const span = 2 ** 32;
    const limit = span - (span % n);
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
}

/** Wall ``number`` of the hand with ``key``: the pieces sorted, then Fisher–Yates from the end (§4). */
export async function rebuildWall(key: Uint8Array, number: number, pieces: number[]): Promise<number[]> {
  const out = [...pieces].sort((a, b) => a - b);
  const stream = await Stream.open(key, `wall/${number}`);
  for (let i = out.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export interface FairCheck {
  ok: boolean;
  /** What was checked, in order; the first failing step ends the list. */
  steps: { what: string; ok: boolean }[];
  walls: number;
}

function isWall(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((p) => typeof p === "number");
}

/** Check a finished match's fair deal: ``shown`` is the room's ``fair`` first seen before the
 * deal, ``reveal`` the ``match_end`` one, ``mySeat``/``mySeed`` this client's, and ``record``
 * the parsed record lines (null: walls not checked). */
export async function checkFairDeal(
  shown: FairInfo,
  reveal: FairReveal,
  mySeat: number | null,
  mySeed: string | null,
  record: RecordLine[] | null,
): Promise<FairCheck> {
  const steps: { what: string; ok: boolean }[] = [];
  const step = (what: string, ok: boolean): boolean => {
    steps.push({ what, ok });
    return ok;
  };
  const done = (walls = 0): FairCheck => ({ ok: steps.every((s) => s.ok), steps, walls });
  if (!step("scheme", reveal?.scheme === SCHEME && shown?.scheme === SCHEME)) return done();
  if (!step("commitment", reveal.commitment === shown.commitment)) return done();
  let seed: Uint8Array;
  try {
    seed = hexToBytes(reveal.server_seed);
  } catch {
    step("seed", false);
    return done();
  }
  if (!step("seed", (await sha256Hex(seed)) === shown.commitment)) return done();
  if (mySeat !== null && !step("my_seed", (reveal.client_seeds ?? [])[mySeat] === (mySeed ?? ""))) return done();
  if (record === null) return done();
  const head: RecordLine = record[0] ?? {};
  const fair = head.fair ?? {};
  const sameHeader =
    fair.commitment === shown.commitment &&
    fair.room === reveal.room &&
    JSON.stringify(fair.client_seeds) === JSON.stringify(reveal.client_seeds);
  if (!step("record", sameHeader)) return done();
  let walls = 0;
  for (const line of record) {
    if (line?.type !== "hand_end" || !Array.isArray(line.walls)) continue;
    if (typeof line.index !== "number" || !line.walls.every(isWall)) {
      step(`record line ${record.indexOf(line) + 1}`, false);
      return done(walls);
    }
    const key = await handKey(seed, reveal.room, line.index, reveal.client_seeds);
    for (let j = 0; j < line.walls.length; j++) {
      const wall: number[] = line.walls[j];
      const rebuilt = await rebuildWall(key, j, wall);
      if (rebuilt.length !== wall.length || rebuilt.some((p, i) => p !== wall[i])) {
        step(`wall ${j + 1} of hand ${line.index + 1}`, false);
        return done(walls);
      }
      walls += 1;
    }
  }
  step("walls", walls > 0);
  return done(walls);
}
