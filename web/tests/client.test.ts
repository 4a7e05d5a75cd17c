import { describe, expect, it } from "vitest";
import { actionPiece, actionVerb, mahjongMeldTiles, parseCards, parseTiles, pieceKey, withoutOne } from "../src/notation";
import type { JiaxingView } from "../src/schema/server-messages";
import { applyMessage, initialState, settlementParts, sides, type RoomInfo } from "../src/state";
import { eventPiece } from "../src/view";

/** A Jiaxing view of seat 0 in ``phase`` with nothing on the table yet. */
function view(phase: JiaxingView["phase"]): JiaxingView {
  return { variant: "jiaxing", seat: 0, dealer: 2, phase, current: 3, wall_left: 80, players: [], to_act: [0], legal_actions: [], net: [0, 0, 0, 0] };
}

describe("notation", () => {
  it("splits tiles sharing a suit letter", () => {
    expect(parseTiles("16889m7p 11z")).toEqual(["1m", "6m", "8m", "8m", "9m", "7p", "1z", "1z"]);
    expect(parseTiles("1f2f")).toEqual(["1f", "2f"]);
  });
  it("splits cards, face ranks and the jokers", () => {
    expect(parseCards("QQhQc")).toEqual(["Qh", "Qh", "Qc"]);
    expect(parseCards("17s JJh BJSJAD")).toEqual(["1s", "7s", "Jh", "Jh", "BJ", "SJ", "AD"]);
  });
  it("names what is wrong", () => {
    expect(() => parseTiles("12")).toThrow(/without a suit/);
    expect(() => parseTiles("1x")).toThrow(/unexpected 'x'/);
    expect(() => parseCards("h")).toThrow(/without ranks/);
  });
  it("reads actions", () => {
    expect(actionPiece("d5m")).toBe("5m");
    expect(actionPiece("anK")).toBe("Kh");
    expect(actionVerb("ting3s")).toBe("tingd");
    expect(actionVerb("ting")).toBe("ting");
    expect(actionVerb("dBJ")).toBe("d");
    expect(actionVerb("pass")).toBe("pass");
    expect(mahjongMeldTiles("chi", "3s")).toEqual(["3s", "4s", "5s"]);
    expect(mahjongMeldTiles("concealed_kong", "5z")).toHaveLength(4);
  });
  it("sorts by suit then rank and removes one copy", () => {
    const sorted = ["1z", "9m", "1p", "1m"].sort((a, b) => pieceKey("jiaxing", a) - pieceKey("jiaxing", b));
    expect(sorted).toEqual(["1m", "9m", "1p", "1z"]);
    expect(withoutOne(["1m", "1m", "2m"], "1m")).toEqual(["1m", "2m"]);
  });
});

describe("messages", () => {
  const room: RoomInfo = {
    code: "ABCDEF",
    variant: "jiaxing",
    n_seats: 4,
    seats: [],
    status: "playing",
    options: {},
    timers: { turn_seconds: 20, claim_seconds: 8, bank_seconds: 60 },
    game_id: null,
    spectators: 0,
    fair: { scheme: "paiju-fair-1", commitment: "ab".repeat(32), room: "ABCDEF", client_seeds: ["", "", "", ""] },
  };
  const match = { dealer: 0, hands: [], hands_played: 1, ledger: [], round_wind: 0, totals: [2, 0, 0, -2] };
  it("keeps the events of the hand and builds the settlement", () => {
    let s = applyMessage(initialState(), { type: "room", room, you: { seat: 0, host: true, client_seed: null } }, 0);
    s = applyMessage(s, { type: "hand_start", hand: 0, dealer: 2 }, 0);
    s = applyMessage(
      s,
      {
        type: "update",
        turn: 5,
        hand: 0,
        events: [{ type: "discard", seat: 3, tile: "4p" }],
        state: view("claim"),
        legal: ["pass", "hu"],
        to_act: [0],
        timers: [{ seat: 0, remaining_ms: 68000, bank_ms: 60000, base_ms: 8000, deadline_ms: 68000 }],
      },
      1000,
    );
    expect(s.game?.legal).toEqual(["pass", "hu"]);
    expect(s.game?.timers[0].ends_at).toBe(69000);
    s = applyMessage(
      s,
      {
        type: "update",
        turn: 6,
        hand: 0,
        events: [
          { type: "win", winners: [0], how: "discard", tile: "4p" },
          { type: "score", seat: 0, items: [{ id: "fang_pao", name: "放炮", value: 2 }], hand: "123m", per_payer: 2, counts_as: "discard" },
          { type: "payment", seat: 0, payer: 3, payee: 0, amount: 2, reason: "fang_pao" },
          {
            type: "end",
            net: [2, 0, 0, -2],
            explanation: {
              variant: "jiaxing",
              formula: [{ zh: "每家应付 = 放炮 2 = 2", en: "per payer = dealt in 2 = 2", rule: "J5" }],
              payments: [{ payer: 3, payee: 0, amount: 2, reason: "fang_pao", zh: "放炮", en: "dealt in", rule: "J5" }],
              text: { zh: "每家应付 = 放炮 2 = 2", en: "per payer = dealt in 2 = 2" },
            },
          },
        ],
        state: view("end"),
        legal: [],
        to_act: [],
        timers: [],
      },
      2000,
    );
    s = applyMessage(s, { type: "hand_end", hand: 0, winners: [0], self_drawn: false, exhausted: false, net: [2, 0, 0, -2], state: { phase: "between_hands" }, match, next_hand_ms: null }, 3000);
    expect(s.settlement?.winners).toEqual([0]);
    const parts = settlementParts(s.settlement!.events);
    expect(parts.win && eventPiece(parts.win)).toBe("4p");
    expect(parts.scores[0]).toMatchObject({ per_payer: 2 });
    expect(parts.payments).toHaveLength(1);
    expect(s.match?.totals).toEqual([2, 0, 0, -2]);
    s = applyMessage(s, { type: "hand_start", hand: 1, dealer: 0 }, 4000);
    expect(s.settlement).toBeNull();
    expect(s.lastSettlement?.net).toEqual([2, 0, 0, -2]);
    expect(s.handEvents).toEqual([]);
  });
  it("reports errors without losing the table", () => {
    const s = applyMessage(initialState(), { type: "error", code: "illegal_action", message: "no" }, 0);
    expect(s.error).toBe("illegal_action: no");
  });
  it("places seats around the table from the viewer's seat", () => {
    expect(sides(4, 1)).toEqual({ bottom: 1, right: 2, top: 3, left: 0 });
    expect(sides(3, 2)).toEqual({ bottom: 2, right: 0, top: null, left: 1 });
  });
});
