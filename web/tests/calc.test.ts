import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { calcWilds } from "../src/calc";
import { PieceView, Wilds } from "../src/faces";

const hun = (indicator: unknown, options: Record<string, unknown> = {}) => ({ variant: "jiaxing", options: { hun: true, ...options }, hun: indicator });
const kinds = (s: ReadonlySet<string>) => [...s].sort();

describe("the calculator's 混儿", () => {
  it("makes the indicator and the kinds after it wild, round each cycle", () => {
    expect(kinds(calcWilds(hun("5s"), undefined))).toEqual(["5s", "6s"]);
    expect(kinds(calcWilds(hun("9m"), undefined))).toEqual(["1m", "9m"]);
    expect(kinds(calcWilds(hun("4z"), undefined))).toEqual(["1z", "4z"]);
    expect(kinds(calcWilds(hun("7z"), undefined))).toEqual(["5z", "7z"]);
    expect(kinds(calcWilds(hun("9p", { hun_kinds: 3 }), undefined))).toEqual(["1p", "2p", "9p"]);
    expect(kinds(calcWilds(hun("6z", { hun_kinds: 3 }), undefined))).toEqual(["5z", "6z", "7z"]);
    expect(kinds(calcWilds(hun("3z", { hun_kinds: 1 }), undefined))).toEqual(["3z"]);
  });
  it("takes hun_kinds from the server's default when the situation does not set it", () => {
    const fields: any[] = [{ name: "hun_kinds", type: "choice", default: 3 }];
    expect(kinds(calcWilds(hun("1s"), fields))).toEqual(["1s", "2s", "3s"]);
  });
  it("marks nothing without the option, another game or a usable indicator", () => {
    expect(calcWilds({ variant: "jiaxing", options: {}, hun: "5s" }, undefined).size).toBe(0);
    expect(calcWilds({ ...hun("5s"), variant: "taixing" }, undefined).size).toBe(0);
    for (const bad of ["", "5s6s", "3f", "x", 5, null]) expect(calcWilds(hun(bad), undefined).size).toBe(0);
    expect(calcWilds(null, undefined).size).toBe(0);
  });
  it("marks a wild face as the table does: 混 on the face and 混儿 in its name", () => {
    const wilds = calcWilds(hun("5s"), undefined);
    const wild = renderToString(h(Wilds.Provider, { value: wilds }, h(PieceView, { variant: "jiaxing", piece: "6s", lang: "zh" })));
    const plain = renderToString(h(Wilds.Provider, { value: wilds }, h(PieceView, { variant: "jiaxing", piece: "7s", lang: "zh" })));
    expect(wild).toContain("wild-mark");
    expect(wild).toContain("六索（混儿）");
    expect(plain).not.toContain("wild-mark");
  });
});

describe("the calculator's words", () => {
  it("shows the reason and a refused field in the page's language", async () => {
    const { calcReason, calcErrorText } = await import("../src/calc");
    expect(calcReason("zh", "不足60分 / score must exceed 60")).toBe("不足60分");
    expect(calcReason("en", "不足60分 / score must exceed 60")).toBe("score must exceed 60");
    expect(calcReason("zh", "plain")).toBe("plain");
    expect(calcErrorText("zh", "hand: unexpected 'x' at 1")).toBe("输入有误：手牌（含胡的那张）不对（hand: unexpected 'x' at 1）");
    expect(calcErrorText("zh", "players[1].hand: bad")).toBe("输入有误：各家的牌不对（players[1].hand: bad）");
    expect(calcErrorText("en", "hand: bad")).toBe("Bad input: hand: bad");
    expect(calcErrorText("zh", "mystery_field: bad")).toBe("输入有误：mystery_field: bad");
  });
});

describe("seats in the engine's explanations", () => {
  it("are numbered from 1 where people read them", async () => {
    const { withSeatNames } = await import("../src/names");
    const name = (s: number) => `座位 ${s + 1}`;
    expect(withSeatNames("zh", "座位1 和牌，计为放炮：一家付（座位2）", name)).toBe("座位 2 和牌，计为放炮：一家付（座位 3）");
    expect(withSeatNames("zh", "钓鱼：座位0 从牌尾取 2m 6s，逆时针数落在座位 1, 1, 2；座位1 和了", name)).toBe("钓鱼：座位 1 从牌尾取 2m 6s，逆时针数落在座位 2、座位 2、座位 3；座位 2 和了");
    const en = (s: number) => `P${s + 1}`;
    expect(withSeatNames("en", "fishing: seat 0 turns 2m from the tail, counting lands on seats 1, 2; seat 1 won", en)).toBe("fishing: P1 turns 2m from the tail, counting lands on P2, P3; P2 won");
    expect(withSeatNames("en", "not the holder's seat card", en)).toBe("not the holder's seat card");
  });
});

describe("failures said in the page's language", () => {
  it("names a network failure and a refused replay in Chinese", async () => {
    const { failureText } = await import("../src/i18n");
    const { replayRefusal } = await import("../src/replay");
    expect(failureText("zh", new TypeError("Failed to fetch"))).toBe("连不上服务器");
    expect(failureText("en", new TypeError("Failed to fetch"))).toBe("Could not reach the server");
    expect(failureText("zh", new Error("HTTP 500"))).toBe("HTTP 500");
    expect(replayRefusal("zh", 404, "no game 'x'")).toBe("没有这局对局（no game 'x'）");
    expect(replayRefusal("en", 409, "not finished")).toBe("The game has not finished yet (not finished)");
    expect(replayRefusal("zh", 500, "boom")).toBe("boom");
  });
});
