import { describe, expect, it } from "vitest";
import { callouts, cueFor, describeEvent, diceOf, isLeopard, lastDiscard } from "../src/events";
import { errorText } from "../src/i18n";
import { botLevelName, seatName, signed } from "../src/names";
import { autoAction, DEFAULT_PREFS } from "../src/prefs";
import { splitPayments, uncovered } from "../src/settlement";
import { initialState } from "../src/state";
import { dealerStreak, liveTotals } from "../src/table";
import { changedOptions, normalizeVariant, parseField, seatCount } from "../src/variants";
import { viewWaits } from "../src/waits";

describe("formatting", () => {
  it("signs score changes and numbers seats from 1", () => {
    expect(signed(3)).toBe("+3");
    expect(signed(0)).toBe("0");
    expect(signed(-2)).toBe("-2");
    const room: any = { seats: [{ kind: "person", name: "" }, { kind: "bot", name: "" }] };
    expect(seatName("zh", room, 0, null)).toBe("1 号位");
    expect(seatName("zh", room, 1, 1)).toBe("机器人 2（你）");
    expect(seatName("en", room, 0, null)).toBe("seat 1");
  });
  it("names the bot levels in Chinese", () => {
    expect(botLevelName("zh", "random")).toBe("简单");
    expect(botLevelName("zh", "greedy")).toBe("普通");
    expect(botLevelName("zh", "strong")).toBe("强");
    expect(botLevelName("en", "strong")).toBe("strong");
    expect(botLevelName("zh", "other")).toBe("other");
  });
  it("shows a server error in the page's language", () => {
    expect(errorText("zh", "no_such_room", "no room ABCDEF")).toBe("没有这个房间号（no room ABCDEF）");
    expect(errorText("en", "no_such_room", "no room ABCDEF")).toBe("no room ABCDEF");
    expect(errorText("zh", "mystery", "what")).toBe("what");
  });
});

describe("events", () => {
  const name = (s: number) => `P${s + 1}`;
  it("marks the last discard until it is claimed", () => {
    const ev: any[] = [{ type: "discard", seat: 1, tile: "5m" }];
    expect(lastDiscard(ev)).toEqual({ seat: 1, piece: "5m" });
    expect(lastDiscard(ev.concat([{ type: "pong", seat: 2, tile: "5m", from: 1 }]))).toBeNull();
    expect(lastDiscard([{ type: "discard", seat: 0, card: "Qh" }, { type: "draw", seat: 1 }])).toEqual({ seat: 0, piece: "Qh" });
  });
  it("reads the dice and the leopard", () => {
    expect(diceOf([{ type: "dice", dice: [3, 3] }])).toEqual([3, 3]);
    expect(isLeopard([3, 3])).toBe(true);
    expect(isLeopard([3, 4])).toBe(false);
    expect(isLeopard(null)).toBe(false);
  });
  it("calls out claims on the claiming seat and money paid during the hand", () => {
    const c = callouts("zh", [{ type: "pong", seat: 2, tile: "5m" }, { type: "payment", payer: 1, payee: 2, amount: 2 }], false);
    expect(c).toEqual([
      { seat: 2, text: "碰", kind: "claim" },
      { seat: 2, text: "+2", kind: "pay" },
      { seat: 1, text: "-2", kind: "pay" },
    ]);
    expect(callouts("zh", [{ type: "win", winners: [0, 3], how: "discard" }], true).map((x) => x.seat)).toEqual([0, 3]);
    expect(cueFor([{ type: "discard" }, { type: "kong" }])).toBe("claim");
    expect(cueFor([{ type: "draw" }])).toBeNull();
  });
  it("says what happened in words", () => {
    expect(describeEvent("zh", "jiaxing", { type: "discard", seat: 0, tile: "5m" }, name)).toBe("P1 打出 五万");
    expect(describeEvent("en", "qinger", { type: "discard", seat: 1, card: "7h" }, name)).toBe("P2 discards 7 of hearts");
    expect(describeEvent("zh", "qinger", { type: "draw", seat: 1 }, name)).toBeNull();
  });
});

describe("settlement parts", () => {
  it("sets kong money paid during the hand apart from the settlement", () => {
    const ev = [
      { type: "payment", payer: 1, payee: 0, amount: 2, reason: "ming_gang" },
      { type: "win", winners: [0] },
      { type: "payment", payer: 2, payee: 0, amount: 8, reason: "hu" },
    ];
    const { during, settle } = splitPayments(ev);
    expect(during.map((p) => p.amount)).toEqual([2]);
    expect(settle.map((p) => p.amount)).toEqual([8]);
  });
  it("lists every payment once: the explanation's worded lines, and the events it leaves out", () => {
    const events = [
      { payer: 1, payee: 0, amount: 2, reason: "gang" },
      { payer: 2, payee: 0, amount: 4, reason: "hu" },
      { payer: 2, payee: 0, amount: 4, reason: "hu" },
    ];
    expect(uncovered(events, [{ payer: 2, payee: 0, amount: 8, reason: "hu", zh: "自摸" }])).toEqual([events[0]]);
    expect(uncovered(events, [{ payer: 2, payee: 0, amount: 5, reason: "hu" }, { payer: 1, payee: 0, amount: 2, reason: "gang" }])).toEqual([
      { payer: 2, payee: 0, amount: 3, reason: "hu" },
    ]);
  });
  it("moves the table's scores with the hand's payments, once", () => {
    const s: any = { ...initialState(), room: { n_seats: 4 }, match: { totals: [5, -5, 0, 0] }, game: { state: { net: [2, -2, 0, 0] } } };
    expect(liveTotals(s)).toEqual([7, -7, 0, 0]);
    expect(liveTotals({ ...s, settlement: {} })).toEqual([5, -5, 0, 0]);
  });
  it("counts the dealer's streak", () => {
    expect(dealerStreak({ hands: [{ dealer: 1 }, { dealer: 0 }, { dealer: 0 }] }, 0)).toBe(2);
    expect(dealerStreak(null, 0)).toBe(0);
  });
});

describe("auto options", () => {
  it("answers only what the player asked for", () => {
    const on = { ...DEFAULT_PREFS, autoWin: true, noClaims: true, tsumogiri: true };
    expect(autoAction(DEFAULT_PREFS, ["hu", "pass"], null, false)).toBeNull();
    expect(autoAction(on, ["hu", "pass"], null, false)).toBe("hu");
    expect(autoAction(on, ["pong", "pass"], null, false)).toBe("pass");
    expect(autoAction(on, ["d5m", "d6m"], "6m", false)).toBe("d6m");
    expect(autoAction({ ...on, tsumogiri: false }, ["d5m", "d6m", "an5m"], "6m", false)).toBeNull();
    expect(autoAction(DEFAULT_PREFS, ["d5m", "d6m"], "6m", true)).toBe("d6m");
    expect(autoAction(on, ["zimo", "d6m"], "6m", true)).toBe("zimo");
  });
});

describe("/api/variants", () => {
  it("reads the mapping of defaults and the bot levels the server offers", () => {
    const v = normalizeVariant({ name: "qinger", n_seats: 3, options: { participants: 3, fishing: true, hands: null, deal: "x" }, bots: ["random", "greedy"] });
    expect(v.seats).toBe(3);
    expect(v.pieces).toBe("cards");
    expect(v.bots).toEqual(["random", "greedy"]);
    expect(v.options.map((f) => [f.name, f.type])).toEqual([["participants", "int"], ["fishing", "bool"], ["hands", "int"], ["deal", "str"]]);
  });
  it("reads a field list with labels, choices and limits", () => {
    const v = normalizeVariant({
      name: "jiaxing",
      seats: 4,
      names: { zh: "嘉兴麻将", en: "Jiaxing mahjong" },
      option_fields: [{ name: "floor", type: "int", default: 5, label: { zh: "底", en: "floor" }, rule: "J12", min: 0, max: 50 }, { name: "hai_di", type: "str", default: "last_tile", choices: ["last_tile", "off"] }],
      server_bot_levels: ["random", "greedy", "strong"],
    });
    expect(v.options[0]).toMatchObject({ name: "floor", type: "int", rule: "J12", min: 0, max: 50, label: { zh: "底", en: "floor" } });
    expect(v.options[1].type).toBe("choice");
    expect(v.bots).toContain("strong");
    expect(changedOptions(v.options, { floor: 5, hai_di: "off" })).toEqual({ hai_di: "off" });
    expect(parseField(v.options[0], "7")).toBe(7);
    expect(() => parseField(v.options[0], "x")).toThrow("floor");
  });
});

describe("/api/variants from Variant.describe()", () => {
  const v = normalizeVariant({
    name: "qinger",
    names: { zh: "青儿", zht: "青兒", en: "Qing'er" },
    pieces: "cards",
    seats: 3,
    seats_option: "participants",
    options: [
      { name: "participants", type: "choice", default: 3, nullable: false, choices: [3, 4], minimum: null, maximum: null, label: { zh: "人数", en: "players" }, rule: "Q2" },
      { name: "hands", type: "int", default: 6, nullable: true, choices: [], minimum: 1, maximum: 99, label: { zh: "局数", en: "hands" }, rule: null },
    ],
    bots: { levels: ["random", "greedy", "strong"], server: ["random", "greedy"], default: "greedy", names: { random: { zh: "简单", en: "easy" } } },
    rule_book: "docs/rules/qinger.md",
  });
  it("offers the server's bot levels only, with their names", () => {
    expect(v.bots).toEqual(["random", "greedy"]);
    expect(v.defaultBot).toBe("greedy");
    expect(v.botNames.random).toEqual({ zh: "简单", en: "easy" });
    expect(v.names).toEqual({ zh: "青儿", en: "Qing'er" });
    expect(v.ruleBook).toBeNull(); // a path in the repository, not a web address
  });
  it("reads bounds, choices and the seats option", () => {
    expect(v.options[0]).toMatchObject({ type: "choice", choices: [3, 4], label: { zh: "人数", en: "players" }, rule: "Q2" });
    expect(v.options[1]).toMatchObject({ type: "int", choices: null, min: 1, max: 99, optional: true });
    expect(seatCount(v, {})).toBe(3);
    expect(seatCount(v, { participants: 4 })).toBe(4);
  });
});

describe("help for the hand", () => {
  it("reads the view's waits: unseen copies, and why a wait would not be a win", () => {
    const view = {
      waits: [
        { tile: "5m", left: 2, self_draw: null, discard: null },
        { tile: "8p", left: 0, self_draw: null, discard: { code: "feng_hu", zh: "封胡", en: "sealed by 封胡" } },
      ],
    };
    const w = viewWaits("zh", view, 0);
    expect(w[0]).toEqual({ piece: "5m", unseen: 2, selfDraw: { ok: true, reason: "" }, discard: { ok: true, reason: "" }, value: null });
    expect(w[1].discard).toEqual({ ok: false, reason: "封胡" });
    expect(viewWaits("en", view, 0)[1].discard.reason).toBe("sealed by 封胡");
    expect(viewWaits("zh", { players: [{}] }, 0)).toEqual([]);
  });
  it("reads Qing'er's waits with the value the gate compares", () => {
    const w = viewWaits("zh", { waits: [{ card: "7h", left: 1, self_draw: { code: "below_threshold", zh: "不过六十", en: "60 or less" }, discard: { code: "below_threshold", zh: "不过六十", en: "60 or less" }, value: 58 }] }, 0);
    expect(w[0]).toMatchObject({ piece: "7h", unseen: 1, value: 58, selfDraw: { ok: false, reason: "不过六十" } });
  });
});
