import { describe, expect, it } from "vitest";
import { keepArrangement, movePiece, parseCards, parseTiles, pieceKey, sortPieces } from "../src/notation";

describe("per-game sorting", () => {
  it("sorts a Qing'er hand ♠ → ♥ → ♣ → faces → jokers, never mixing ♠ with ♥", () => {
    const hand = parseCards("9s1h 5c 2s Kc Jh BJ 3h Qh AD 1s SJ Qc Jc 7c");
    expect(sortPieces("qinger", hand)).toEqual([
      "1s", "2s", "9s", "1h", "3h", "5c", "7c", "Jh", "Jc", "Qh", "Qc", "Kc", "BJ", "SJ", "AD",
    ]);
  });
  it("keeps each suit of a 23-card hand in one run", () => {
    const hand = parseCards("123456789s 123456789h 1234c");
    const sorted = sortPieces("qinger", hand.slice().reverse());
    const suits = sorted.map((c) => c[1]).join("");
    expect(suits).toBe("sssssssssshhhhhhhhhcccc".slice(1));
  });
  it("sorts tiles 万 → 筒 → 索 → honours → flowers; the same letter means 索 here", () => {
    const hand = parseTiles("3f 7z 9s 1p 5m 1s 2m");
    expect(sortPieces("taixing", hand)).toEqual(["2m", "5m", "1p", "1s", "9s", "7z", "3f"]);
    expect(pieceKey("taixing", "5s")).toBeGreaterThan(pieceKey("taixing", "9p"));
    expect(pieceKey("qinger", "5s")).toBeLessThan(pieceKey("qinger", "1h"));
  });
  it("sets the suit being dropped (缺门) aside at the end", () => {
    expect(sortPieces("taixing", parseTiles("1m 9p 2s 5m 7z"), { aside: "p" })).toEqual(["1m", "5m", "2s", "7z", "9p"]);
    // cards are never set aside by suit
    expect(sortPieces("qinger", parseCards("1h 1s"), { aside: "s" })).toEqual(["1s", "1h"]);
  });
});

describe("the player's own arrangement", () => {
  const key = (p: string) => pieceKey("jiaxing", p);
  it("moves a piece", () => {
    expect(movePiece(["1m", "2m", "3m"], 0, 2)).toEqual(["2m", "3m", "1m"]);
    expect(movePiece(["1m", "2m"], 5, 0)).toEqual(["1m", "2m"]);
  });
  it("keeps the pieces still held where the player put them and sorts new ones in", () => {
    const arranged = ["3m", "1m", "2m"];
    // 2m was played, 4m and 1p drawn
    expect(keepArrangement(arranged, ["1m", "3m", "4m", "1p"], key)).toEqual(["3m", "1m", "4m", "1p"]);
    expect(keepArrangement(null, ["1m", "2m"], key)).toEqual(["1m", "2m"]);
  });
});
