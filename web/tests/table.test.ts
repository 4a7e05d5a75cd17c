import { describe, expect, it } from "vitest";
import { callouts, cueFor, describeEvent, diceOf, isLeopard, lastDiscard } from "../src/events";
import { errorText } from "../src/i18n";
import { botLevelName, seatName, signed } from "../src/names";
import { autoAction, BOT_PACES, DEFAULT_PREFS, loadPrefs, paceMessage, savePrefs } from "../src/prefs";
import { paymentsApart, splitPayments, type Paid } from "../src/settlement";
import type { SeatEvent, SeatView } from "../src/schema/server-messages";
import { initialState, type ClientState } from "../src/state";
import { CenterInfo, dealerStreak, liveTotals } from "../src/table";
import { changedOptions, normalizeVariant, parseField, profileOptions, ruleLink, seatCount } from "../src/variants";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { gateScore, RunningScore, viewWaits } from "../src/waits";

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
    expect(diceOf([{ type: "dice", seat: 0, dice: [3, 3] }])).toEqual([3, 3]);
    expect(isLeopard([3, 3])).toBe(true);
    expect(isLeopard([3, 4])).toBe(false);
    expect(isLeopard(null)).toBe(false);
  });
  it("calls out claims on the claiming seat and money paid during the hand", () => {
    const c = callouts("zh", [{ type: "pong", seat: 2, tile: "5m", from: 1 }, { type: "payment", seat: 2, payer: 1, payee: 2, amount: 2, reason: "gang" }], false);
    expect(c).toEqual([
      { seat: 2, text: "碰", kind: "claim" },
      { seat: 2, text: "+2", kind: "pay" },
      { seat: 1, text: "-2", kind: "pay" },
    ]);
    expect(callouts("zh", [{ type: "win", winners: [0, 3], how: "discard", tile: "5m" }], true).map((x) => x.seat)).toEqual([0, 3]);
    expect(cueFor([{ type: "discard", seat: 0, tile: "5m" }, { type: "kong", seat: 1, tile: "5m", from: 0 }])).toBe("claim");
    expect(cueFor([{ type: "draw", seat: 0 }])).toBeNull();
  });
  it("says what happened in words", () => {
    expect(describeEvent("zh", "jiaxing", { type: "discard", seat: 0, tile: "5m" }, name)).toBe("P1 打出 五万");
    expect(describeEvent("en", "qinger", { type: "discard", seat: 1, card: "7h" }, name)).toBe("P2 discards 7 of hearts");
    expect(describeEvent("zh", "qinger", { type: "draw", seat: 1 }, name)).toBeNull();
  });
});

describe("settlement parts", () => {
  it("sets kong money paid during the hand apart from the settlement", () => {
    const ev: SeatEvent[] = [
      { type: "payment", seat: 0, payer: 1, payee: 0, amount: 2, reason: "gang" },
      { type: "win", winners: [0], how: "self_draw", tile: "5m" },
      { type: "payment", seat: 0, payer: 2, payee: 0, amount: 8, reason: "zi_mo" },
    ];
    const { during, settle } = splitPayments(ev);
    expect(during.map((p) => p.amount)).toEqual([2]);
    expect(settle.map((p) => p.amount)).toEqual([8]);
  });
  it("matches settlement payments split by item to the explanation's line per payer", () => {
    const ev = [
      { type: "payment", seat: 0, payer: 1, payee: 0, amount: 2, reason: "gang" },
      { type: "win", winners: [0], how: "self_draw", tile: "5m" },
      { type: "payment", seat: 0, payer: 2, payee: 0, amount: 4, reason: "men_qing" },
      { type: "payment", seat: 0, payer: 2, payee: 0, amount: 3, reason: "zhuo_wu_er" },
      { type: "payment", seat: 0, payer: 3, payee: 0, amount: 9, reason: "diao_yu" },
    ] satisfies SeatEvent[];
    const explained: Paid[] = [
      { payer: 2, payee: 0, amount: 7, reason: "zi_mo", zh: "自摸" },
      { payer: 3, payee: 0, amount: 5, reason: "zi_mo", zh: "自摸" },
    ];
    const { during, extra } = paymentsApart(ev, explained);
    // the kong money is not in the explanation: listed apart; 4 + 3 is the explanation's 7
    expect(during).toEqual([ev[0]]);
    // what the explanation leaves out of a payer's total stays listed, never hidden
    expect(extra).toEqual([{ ...ev[4], amount: 4 }]);
    expect(paymentsApart(ev, explained.concat([{ payer: 1, payee: 0, amount: 2, reason: "gang" }])).during).toEqual([]);
  });
  it("moves the table's scores with the hand's payments, once", () => {
    const player = (seat: number) => ({ seat, melds: [], discards: "", concealed_count: 13 });
    const view: SeatView = {
      variant: "jiaxing", seat: 0, dealer: 0, phase: "act", current: 0, wall_left: 80, to_act: [0], legal_actions: [],
      net: [2, -2, 0, 0], players: [0, 1, 2, 3].map(player),
    };
    const s: ClientState = {
      ...initialState(),
      match: { totals: [5, -5, 0, 0] },
      game: { turn: 3, hand: 0, state: view, legal: [], to_act: [0], timers: [] },
    };
    expect(liveTotals(s)).toEqual([7, -7, 0, 0]);
    const settlement = { hand: 0, winners: [], self_drawn: false, exhausted: true, net: [0, 0, 0, 0], events: [], state: view, next_hand_ms: null, received_at: 0, explanation: null };
    expect(liveTotals({ ...s, settlement })).toEqual([5, -5, 0, 0]);
  });
  it("counts the dealer's streak", () => {
    const hand = (dealer: number) => ({ index: 0, dealer, winners: [], self_drawn: false, exhausted: true, net: [0, 0, 0, 0] });
    expect(dealerStreak({ totals: [0, 0, 0, 0], hands: [hand(1), hand(0), hand(0)] }, 0)).toBe(2);
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
  const bots = { levels: ["random", "greedy", "strong"], server: ["random", "greedy", "strong"], default: "strong", names: {} };
  it("reads a field list with labels, choices and limits", () => {
    const v = normalizeVariant({
      name: "jiaxing",
      names: { zh: "嘉兴麻将", zht: "嘉興麻將", en: "Jiaxing mahjong" },
      pieces: "tiles",
      seats: 4,
      seats_option: null,
      options: [
        { name: "floor", type: "int", default: 5, nullable: false, choices: [], minimum: 0, maximum: 50, label: { zh: "底", en: "floor" }, rule: "J12" },
        { name: "hai_di", type: "choice", default: "last_tile", nullable: false, choices: ["last_tile", "off"], minimum: null, maximum: null, label: { zh: "海底", en: "last tile" }, rule: "JA12" },
      ],
      bots,
      items: [{ id: "fang_pao", zh: "放炮", zht: "放炮", en: "win on a discard", seed: "J3" }],
      rule_book: "docs/rules/jiaxing.md",
      profiles: [],
    });
    expect(v.seats).toBe(4);
    expect(v.pieces).toBe("tiles");
    expect(v.options[0]).toMatchObject({ name: "floor", type: "int", rule: "J12", min: 0, max: 50, label: { zh: "底", en: "floor" } });
    expect(v.options[1].type).toBe("choice");
    expect(v.bots).toContain("strong");
    expect(v.defaultBot).toBe("strong");
    expect(v.itemRules).toEqual({ fang_pao: "J3" });
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
      { name: "hands", type: "int", default: 6, nullable: true, choices: [], minimum: 1, maximum: 99, label: { zh: "局数", en: "hands" }, rule: "QA2" },
    ],
    bots: { levels: ["random", "greedy", "strong"], server: ["random", "greedy"], default: "greedy", names: { random: { zh: "简单", en: "easy" } } },
    items: [],
    rule_book: "docs/rules/qinger.md",
    profiles: [{ name: "qinger", version: 1, options: {}, zh: "青儿", en: "Qing'er" }],
  });
  it("offers the server's bot levels only, with their names", () => {
    expect(v.bots).toEqual(["random", "greedy"]);
    expect(v.defaultBot).toBe("greedy");
    expect(v.botNames.random).toEqual({ zh: "简单", en: "easy" });
    expect(v.names).toEqual({ zh: "青儿", en: "Qing'er" });
    // a book of the repository is served at /rules/<game>, and rule ids link into it
    expect(v.ruleBook).toBe("/rules/qinger");
    expect(ruleLink(v.ruleBook, "Q1")).toBe("/rules/qinger#q1");
    expect(ruleLink(v.ruleBook, "J5, J27")).toBe("/rules/qinger#j5");
    expect(ruleLink(null, "Q1")).toBeNull();
  });
  it("sends a rule profile by name with only the values that differ from it", () => {
    const fields = [
      { name: "hun", type: "bool", default: false, optional: false, label: null, rule: "H1", choices: null, min: null, max: null },
      { name: "hun_kinds", type: "choice", default: 2, optional: false, label: null, rule: "HA3", choices: [1, 2, 3], min: null, max: null },
    ] as any;
    const profile = { name: "jiaxing-hun", version: 1, options: { hun: true }, label: { zh: "", en: "" } };
    expect(profileOptions(fields, profile, { hun: true, hun_kinds: 1 })).toEqual({ profile: "jiaxing-hun", hun_kinds: 1 });
    expect(profileOptions(fields, profile, { hun: false })).toEqual({ profile: "jiaxing-hun", hun: false });
    expect(profileOptions(fields, null, { hun: true, hun_kinds: 2 })).toEqual({ hun: true });
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
        { tile: "8p", left: 0, self_draw: null, discard: { code: "sealed" as const, zh: "封胡", en: "sealed by 封胡" } },
      ],
    };
    const w = viewWaits("zh", view);
    expect(w[0]).toEqual({ piece: "5m", unseen: 2, selfDraw: { ok: true, reason: "" }, discard: { ok: true, reason: "" }, value: null });
    expect(w[1].discard).toEqual({ ok: false, reason: "封胡" });
    expect(viewWaits("en", view)[1].discard.reason).toBe("sealed by 封胡");
    expect(viewWaits("zh", {})).toEqual([]);
  });
  it("reads Qing'er's waits with the value the gate compares", () => {
    const w = viewWaits("zh", { waits: [{ card: "7h", left: 1, self_draw: { code: "below_threshold", zh: "不过六十", en: "60 or less" }, discard: { code: "below_threshold", zh: "不过六十", en: "60 or less" }, value: 58 }] });
    expect(w[0]).toMatchObject({ piece: "7h", unseen: 1, value: 58, selfDraw: { ok: false, reason: "不过六十" } });
  });
  it("shows Qing'er's running score against the gate beside the hand, in zh and en", () => {
    const view = { gate: { threshold: 60, strict: true, running: 37 } };
    expect(gateScore(view)).toEqual({ running: 37, threshold: 60, clears: false });
    expect(gateScore({ gate: { threshold: 60, strict: true, running: 60 } })!.clears).toBe(false);
    expect(gateScore({ gate: { threshold: 60, strict: false, running: 60 } })!.clears).toBe(true);
    expect(gateScore({ gate: { threshold: 60, strict: true, running: 70 } })!.clears).toBe(true);
    // before the 见张 is up, for a spectator and in the mahjong games: nothing to show
    expect(gateScore({ gate: { threshold: 60, strict: true, running: null } })).toBeNull();
    expect(gateScore({ waits: [] })).toBeNull();
    const zh = renderToString(h(RunningScore, { lang: "zh", view }));
    expect(zh).toContain("分数 37 / 60");
    expect(zh).toContain('data-testid="running-score"');
    expect(renderToString(h(RunningScore, { lang: "en", view }))).toContain("Score 37 / 60");
    expect(renderToString(h(RunningScore, { lang: "zh", view: { gate: { threshold: 60, strict: true, running: null } } }))).toBe("");
  });
});

describe("bot pace", () => {
  it("is kept per device, and a pace no longer offered falls back to the server's", () => {
    const store: Record<string, string> = {};
    (globalThis as any).localStorage = {
      getItem: (k: string) => store[k] ?? null,
      setItem: (k: string, v: string) => void (store[k] = v),
    };
    expect(loadPrefs().botPace).toBeNull();
    savePrefs({ ...loadPrefs(), botPace: 1.6 });
    expect(loadPrefs().botPace).toBe(1.6);
    expect(paceMessage(loadPrefs())).toEqual({ type: "pace", bot_seconds: 1.6 });
    store["paiju.prefs"] = JSON.stringify({ botPace: 7 });
    expect(loadPrefs().botPace).toBeNull();
    expect(BOT_PACES.map((c) => c.seconds)).toEqual([null, 0.3, 0.8, 1.6]);
    delete (globalThis as any).localStorage;
  });
});

describe("再来一场", () => {
  it("sends a finished room's house rules as the lobby does: only what differs from the defaults", () => {
    const fields: any[] = Array.from({ length: 40 }, (_, i) => ({ name: `o${i}`, default: i % 2 === 0 }));
    const roomOptions: Record<string, unknown> = Object.fromEntries(fields.map((f) => [f.name, f.default]));
    roomOptions.o3 = true;
    // every option of the room would be more than a create_room may carry (32)
    expect(Object.keys(roomOptions).length).toBeGreaterThan(32);
    expect(changedOptions(fields, roomOptions)).toEqual({ o3: true });
  });
});

describe("lists and asides in the page's language", () => {
  it("joins with 、 in Chinese and commas in English, brackets alike", async () => {
    const { joinList, bracket } = await import("../src/i18n");
    expect(joinList("zh", ["机器人 2", "机器人 3"])).toBe("机器人 2、机器人 3");
    expect(joinList("en", ["Bot 2", "Bot 3"])).toBe("Bot 2, Bot 3");
    expect(bracket("zh", "普通")).toBe("（普通）");
    expect(bracket("en", "normal")).toBe(" (normal)");
  });
});

describe("the centre", () => {
  it("shows who knocked and the stake each pair of Qing'er players now plays for", () => {
    const players = [0, 1, 2].map((seat) => ({
      seat, plays: true, knocked: seat === 1, melds: [], takeoffs: [], flowers: "", discards: "", concealed_count: 23,
    }));
    const view: SeatView = {
      variant: "qinger", seat: 0, dealer: 0, sitting_out: null, phase: "act", current: 0, stock_left: 40,
      indicator: "7h", jian_pai: "7", players, to_act: [0], legal_actions: [], net: [0, 0, 0],
      stakes: [{ seats: [0, 1], stake: 2 }, { seats: [0, 2], stake: 1 }, { seats: [1, 2], stake: 2 }],
      gate: { threshold: 60, strict: false, running: 12 },
    };
    const state: ClientState = {
      ...initialState(), seat: 0, game: { turn: 3, hand: 0, state: view, legal: [], to_act: [0], timers: [] },
    };
    const html = renderToString(h(CenterInfo, { lang: "zh", state }));
    expect(html).toContain("已敲：2 号位");
    expect(html).toContain("1 号位（你） 与 2 号位：注 2");
    expect(html).toContain("1 号位（你） 与 3 号位：注 1");
    expect(html).toContain("2 号位 与 3 号位：注 2");
  });
});
