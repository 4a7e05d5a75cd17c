import { describe, expect, it } from "vitest";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { feederOf, SettlementView } from "../src/settlement";
import type { EventOf } from "../src/view";
import type { MahjongMeldView, MahjongPlayerView, QingerPlayerView, SeatEvent, SeatView } from "../src/schema/server-messages";

/** Every ``<button …>…</button>`` of the markup: its accessible name and its inner markup. */
function buttons(html: string): { label: string; inner: string }[] {
  return [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({
    label: /aria-label="([^"]*)"/.exec(m[1])?.[1] ?? "",
    inner: m[2],
  }));
}

function player(seat: number, hand?: string, melds: MahjongMeldView[] = []): MahjongPlayerView {
  return { seat, melds, discards: "", concealed_count: 0, ...(hand ? { hand } : {}) };
}

function qingerPlayer(seat: number, hand?: string): QingerPlayerView {
  return { seat, plays: true, knocked: false, melds: [], takeoffs: [], flowers: "", discards: "", concealed_count: 0, ...(hand ? { hand } : {}) };
}

const GATE = { threshold: 60, strict: false, running: null };

function render(variant: "taixing" | "qinger", hand: string, melds: MahjongMeldView[], piece: string, flowers = ""): string {
  const common = { seat: null, dealer: 0, current: 0, to_act: [], legal_actions: [], net: [0, 0, 0, 0] };
  const state: SeatView =
    variant === "qinger"
      ? { ...common, variant, phase: "end", sitting_out: null, stock_left: 0, indicator: flowers ? "Qh" : null, jian_pai: flowers ? "Q" : null, stakes: [], gate: GATE, players: [qingerPlayer(0, hand), qingerPlayer(1), qingerPlayer(2)] }
      : { ...common, variant, phase: "end", wall_left: 0, players: [{ ...player(0, hand, melds), ...(flowers ? { flowers } : {}) }, player(1), player(2), player(3)] };
  const win: SeatEvent =
    variant === "qinger" ? { type: "win", winners: [0], how: "self_draw", card: piece } : { type: "win", winners: [0], how: "self_draw", tile: piece };
  return renderToString(
    h(SettlementView, { lang: "zh", room: null, me: null, variant, winners: [0], exhausted: false, net: [0, 0, 0, 0], events: [win], state, items: {} }),
  );
}

describe("settlement tiles", () => {
  it("shows the winner's tiles as buttons named in Chinese, each face hidden behind its name", () => {
    const html = render("taixing", "5m5m", [{ type: "chi", tile: "1p", from: 3 }], "5m");
    const bs = buttons(html);
    // the hand (2), the meld (3), the winning tile (1)
    expect(bs.map((b) => b.label)).toEqual(["五万", "五万", "一筒", "二筒", "三筒", "五万"]);
    for (const b of bs) {
      expect(b.inner).toContain('aria-hidden="true"');
      expect(b.inner).not.toContain('role="img"');
    }
    expect(html).toContain('type="button"');
    expect(html).not.toContain('role="img"');
  });
  it("names Qing'er cards the same way", () => {
    const html = render("qinger", "7hBJ", [], "7h");
    expect(buttons(html).map((b) => b.label)).toEqual(["红桃7", "大鬼", "红桃7"]);
  });
});

describe("wait tiles", () => {
  it("are buttons named in the page's language, as every tile on the table", async () => {
    const { Waits } = await import("../src/waits");
    const view = { waits: [{ tile: "3s", left: 2, self_draw: null, discard: null }] };
    for (const [lang, name] of [["zh", "三索"], ["en", "3 bamboo"]] as const) {
      const bs = buttons(renderToString(h(Waits, { lang, variant: "jiaxing", view })));
      expect(bs.map((b) => b.label)).toEqual([name]);
    }
  });
});

describe("who fed the win", () => {
  it("names the discarder of a mahjong win (its event has no from), the win's own from in Qing'er", () => {
    const events: SeatEvent[] = [
      { type: "discard", seat: 2, tile: "3m" },
      { type: "discard", seat: 3, tile: "5m" },
      { type: "win", winners: [0], how: "discard", tile: "5m" },
    ];
    expect(feederOf(events, events[2] as EventOf<"win">)).toBe(3);
    const robbed: SeatEvent[] = [{ type: "discard", seat: 2, tile: "3m" }, { type: "added_kong", seat: 1, tile: "5m" }, { type: "win", winners: [0], how: "robbed_kong", tile: "5m" }];
    expect(feederOf(robbed, robbed[2] as EventOf<"win">)).toBe(1);
    expect(feederOf(events, { type: "win", winners: [0], how: "self_draw", tile: "5m" })).toBeUndefined();
    expect(feederOf([], { type: "win", winners: [0], how: "discard", card: "5h", from: 2 })).toBe(2);
  });
  it("shows the winner's flowers, says who pays the value and, in Qing'er, the 见张", () => {
    const html = render("taixing", "5m5m", [], "5m", "1f 2f");
    expect(html).toContain('data-testid="winner-flowers"');
    expect(buttons(html).map((b) => b.label)).toContain("春");
    expect(render("taixing", "5m5m", [], "5m")).not.toContain("winner-flowers");
    const q = render("qinger", "7hBJ", [], "7h", "-");
    expect(q).toContain('data-testid="settle-indicator"');
    expect(buttons(q).map((b) => b.label)).toContain("红桃Q");
  });
});
