// The review (复盘) and 我的对局 pages: the model (severity, moving between decisions, swipes,
// the chart, kept tokens) and the components rendered to HTML from a real review of a
// one-hand Jiaxing record (tests/data/review-jiaxing.json: `paiju review --json` of seat 0,
// a random bot, with each decision's view, as the server answers it).
import { readFileSync } from "node:fs";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { signed } from "../src/names";
import { MatchStats, PointsChart, StatsBlock } from "../src/review/mine";
import {
  chart,
  discardValues,
  formatPoints,
  formatShare,
  indexOf,
  keptTokens,
  keyStep,
  nextMistake,
  progressShare,
  progressText,
  reviewsPending,
  rankedCandidates,
  recordSeats,
  seatTitle,
  severity,
  thresholds,
  swipeStep,
  type ReviewDoc,
} from "../src/review/model";
import { DecisionPanel, ReviewView, sevText, ValuedHand } from "../src/review/review";
import { count, hasReviewText, reviewTextKeys, rt } from "../src/review/text";

const DOC: ReviewDoc = JSON.parse(readFileSync(new URL("./data/review-jiaxing.json", import.meta.url), "utf8"));

describe("review model", () => {
  it("grades a decision by the points it gave up", () => {
    expect(severity({ agree: true, given_up: 0 })).toBe("ok");
    expect(severity({ agree: false, given_up: 0 })).toBe("near");
    expect(severity({ agree: false, given_up: 0.1 })).toBe("small");
    expect(severity({ agree: false, given_up: 0.3 })).toBe("medium");
    expect(severity({ agree: false, given_up: 0.99 })).toBe("medium");
    expect(severity({ agree: false, given_up: 1 })).toBe("large");
    // Qing'er's points are a hundred times Jiaxing's: the same loss is a small mistake there
    expect(severity({ agree: false, given_up: 1 }, "qinger")).toBe("small");
    expect(severity({ agree: false, given_up: 50 }, "qinger")).toBe("medium");
    expect(severity({ agree: false, given_up: 100 }, "qinger")).toBe("large");
    expect(severity({ agree: false, given_up: 1 }, "taixing")).toBe("medium");
  });
  it("moves by keys: one step, first and last, and from mistake to mistake", () => {
    const ds = DOC.decisions;
    const last = ds.length - 1;
    expect(keyStep("ArrowRight", 0, ds)).toBe(1);
    expect(keyStep("ArrowRight", last, ds)).toBe(last);
    expect(keyStep("ArrowLeft", 0, ds)).toBe(0);
    expect(keyStep("End", 0, ds)).toBe(last);
    expect(keyStep("Home", 5, ds)).toBe(0);
    expect(keyStep("x", 3, ds)).toBeNull();
    const first = ds.findIndex((d) => d.given_up > 0);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(keyStep("ArrowDown", 0, ds)).toBe(first === 0 ? nextMistake(ds, 0, 1) : first);
    const k = nextMistake(ds, first, 1);
    expect(k).toBeGreaterThan(first);
    expect(ds[k].given_up).toBeGreaterThan(0);
    expect(ds.slice(first + 1, k).every((d) => d.given_up === 0)).toBe(true);
    expect(keyStep("ArrowUp", k, ds)).toBe(first);
    // no mistake before the first one: stay
    expect(nextMistake(ds, first, -1)).toBe(first);
  });
  it("scales the thresholds to each game's points", () => {
    expect(thresholds("jiaxing")).toEqual({ medium: 0.3, large: 1 });
    expect(thresholds("qinger")).toEqual({ medium: 30, large: 100 });
    expect(sevText("zh", "large", "qinger")).toBe("大失误（≥ 100 分）");
    expect(sevText("en", "medium", "taixing")).toBe("mistake (0.45–1.5 points)");
  });
  it("reads a sideways swipe and ignores a scroll", () => {
    expect(swipeStep(-80, 5)).toBe(1);
    expect(swipeStep(80, 5)).toBe(-1);
    expect(swipeStep(20, 0)).toBe(0);
    expect(swipeStep(-60, 80)).toBe(0);
  });
  it("finds a mistake among the decisions and ranks the candidates by value", () => {
    for (const m of DOC.mistakes) {
      const d = DOC.decisions[indexOf(DOC, m)];
      expect(d.given_up).toBe(m.given_up);
      const ranked = rankedCandidates(d);
      const pts = ranked.map((c) => c.points ?? -Infinity);
      expect(pts).toEqual(pts.slice().sort((a, b) => b - a));
      expect(ranked.some((c) => c.action === d.choice)).toBe(true);
      expect(ranked.some((c) => c.action === d.bot)).toBe(true);
    }
    const costs = DOC.mistakes.map((m) => m.given_up);
    expect(costs).toEqual(costs.slice().sort((a, b) => b - a));
  });
  it("maps discard candidates onto pieces", () => {
    const d = { ...DOC.decisions[0], candidates: [{ action: "d5m", points: 1, win: null, deal_in: null }, { action: "pass", points: 0, win: null, deal_in: null }, { action: "dJh", points: 2, win: null, deal_in: null }] };
    const v = discardValues(d);
    expect([...v.keys()]).toEqual(["5m", "Jh"]);
  });
  it("formats values and shares", () => {
    expect(formatPoints(1.234)).toBe("+1.23");
    expect(formatPoints(-0.5)).toBe("−0.50");
    expect(formatPoints(0)).toBe("0.00");
    expect(formatPoints(null)).toBe("–");
    expect(formatShare(0.3182)).toBe("31.8%");
    expect(formatShare(undefined)).toBe("–");
  });
  it("reads the seats of a record's header and refuses other text", () => {
    expect(recordSeats('{"record":"paiju","seats":["阿明","bot:strong"]}\n{"type":"hand"}')).toEqual(["阿明", "bot:strong"]);
    expect(recordSeats('{"type":"hand"}')).toBeNull();
    expect(recordSeats("not json")).toBeNull();
    expect(recordSeats("")).toBeNull();
    expect(seatTitle("zh", ["阿明", "bot:strong"], 0)).toBe("1 号位 · 阿明");
    expect(seatTitle("zh", ["阿明", "bot:strong"], 1)).toBe("2 号位 · 机器人（强）");
    expect(seatTitle("en", ["阿明", "bot:strong"], 1)).toBe("seat 2 · bot (strong)");
  });
  it("keeps only this browser's seat tokens", () => {
    const data: Record<string, string> = { "paiju.token.ABCDEF": "t1", "paiju.lang": "zh", "paiju.token.XYZ": "t2", "paiju.token.DUP": "t1", "paiju.token.BIG": "x".repeat(65) };
    const keys = Object.keys(data);
    const storage = { length: keys.length, key: (i: number) => keys[i] ?? null, getItem: (k: string) => data[k] ?? null };
    expect(keptTokens(storage)).toEqual(["t1", "t2"]);
  });
  it("draws bars per match and the running total inside its box", () => {
    const c = chart([5, -3, 10]);
    expect(c.bars.map((b) => b.value)).toEqual([5, -3, 10]);
    expect(c.max).toBe(12);
    expect(c.min).toBe(-3);
    for (const b of c.bars) {
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height).toBeLessThanOrEqual(c.height);
    }
    // the loss hangs below the zero line, the wins stand on it
    expect(c.bars[1].y).toBeCloseTo(c.zero);
    expect(c.bars[0].y + c.bars[0].height).toBeCloseTo(c.zero);
    expect(c.line.split(" ")).toHaveLength(3);
    expect(chart([]).bars).toEqual([]);
  });
  it("has every text in both languages", () => {
    for (const key of ["review.summary", "review.sev.large", "mine.title", "review.search.lookahead", "review.search.montecarlo", "review.search.greedy", "review.search.rule", "review.search.forced"]) {
      expect(hasReviewText(key)).toBe(true);
      expect(rt("zh", key)).not.toBe(rt("en", key));
    }
  });
});

describe("review components", () => {
  it("shows the summary, the costliest decisions and one mark per decision", () => {
    const html = renderToString(h(ReviewView, { lang: "zh", doc: DOC, i: 0, go: () => undefined }));
    expect(html).toContain(`${DOC.hands} 局，${DOC.n_decisions} 个决策`);
    expect(html).toContain("一致 31.8%");
    expect((html.match(/data-testid="review-worst-item"/g) ?? []).length).toBe(Math.min(5, DOC.mistakes.length));
    expect((html.match(/class="rv-mark /g) ?? []).length).toBe(DOC.decisions.length);
    expect(html).toContain('aria-current="step"');
    expect(html).toContain(`第 1 / ${DOC.decisions.length} 个决策`);
    // the large mistake is marked as such
    expect(html).toContain("sev-large");
    expect(html).toContain("大失误（≥ 1 分）");
    const en = renderToString(h(ReviewView, { lang: "en", doc: DOC, i: 0, go: () => undefined }));
    expect(en).toContain(`${DOC.n_decisions} decisions`);
    expect(en).toContain("Costliest decisions");
  });
  it("draws the board as the seat saw it: its own tiles, the others' backs", () => {
    const k = indexOf(DOC, DOC.mistakes[0]);
    const html = renderToString(h(ReviewView, { lang: "zh", doc: DOC, i: k, go: () => undefined }));
    const view = DOC.decisions[k].view!;
    expect(html).toContain('data-testid="review-board"');
    for (let s = 1; s < view.players.length; s++) expect(html).toContain(`data-testid="concealed-${s}"`);
    expect(html).not.toContain('data-testid="concealed-0"');
    // the scores are the match's: the totals as the hand began and what it has paid so far
    const d = DOC.decisions[k];
    const doc = { ...DOC, decisions: DOC.decisions.map((x, j) => (j === k ? { ...d, view: { ...view, match_totals: [10, -5, 0, -5] } } : x)) };
    const later = renderToString(h(ReviewView, { lang: "zh", doc, i: k, go: () => undefined }));
    const net: number[] = view.net;
    const shown = (s: number) => later.match(new RegExp(`data-testid="total-${s}">([^<]*)<`))?.[1];
    expect(shown(0)).toBe(signed(10 + net[0]));
    expect(shown(1)).toBe(signed(-5 + net[1]));
  });
  it("writes the bot's value under each tile it valued, the choice and the bot's marked", () => {
    const k = indexOf(DOC, DOC.mistakes[0]);
    const d = DOC.decisions[k];
    const html = renderToString(h(ValuedHand, { lang: "zh", variant: DOC.variant, view: d.view!, seat: 0, decision: d }));
    const values = discardValues(d);
    const tiles = html.match(/data-testid="review-tile"/g) ?? [];
    expect(tiles.length).toBe(d.view!.players[0].concealed_count);
    for (const [piece, c] of values) {
      expect(html).toContain(`data-piece="${piece}" data-points="${c.points}"`);
      expect(html).toContain(formatPoints(c.points));
    }
    if (d.choice.startsWith("d")) expect(html).toMatch(new RegExp(`class="rv-tile[^"]*chosen[^"]*"[^>]*data-piece="${d.choice.slice(1)}"`));
    if (d.bot.startsWith("d")) expect(html).toMatch(new RegExp(`class="rv-tile[^"]*best[^"]*"[^>]*data-piece="${d.bot.slice(1)}"`));
  });
  it("says what the decision cost and lists the candidates with their values", () => {
    const m = DOC.mistakes[0];
    const html = renderToString(h(DecisionPanel, { lang: "zh", variant: DOC.variant, decision: m }));
    expect(html).toContain(`损失 ${m.given_up.toFixed(2)} 分`);
    expect(html).toContain(`第 ${m.hand} 局第 ${m.turn} 手`);
    expect((html.match(/<tr class=/g) ?? []).length).toBe(m.candidates.length);
    const agree = DOC.decisions.find((d) => d.agree)!;
    expect(renderToString(h(DecisionPanel, { lang: "en", variant: DOC.variant, decision: agree }))).toContain("Same as the bot");
  });
  it("renders a player's statistics, the chart, and nothing after a match before any hand", () => {
    const stats = { name: "阿明", variants: ["jiaxing"], wins: 2, deal_ins: 1, points: 12, matches: 2, hands: 8, win_rate: 0.25, self_draw_share: 0.5, deal_in_rate: 0.125, points_per_hand: 1.5, items: { peng_peng_hu: { zh: "碰碰胡", en: "All pongs", count: 1 } }, agreement: null, decisions_reviewed: 0, match_points: [4, 8] };
    const html = renderToString(h(StatsBlock, { lang: "zh", stats }));
    expect(html).toContain("25%");
    expect(html).toContain("12.5%");
    expect(html).toContain("+1.50");
    expect(html).toContain("碰碰胡 ×1");
    expect(html).toContain("尚未复盘");
    const reviewed = renderToString(h(StatsBlock, { lang: "en", stats: { ...stats, agreement: 0.8, decisions_reviewed: 40 } }));
    expect(reviewed).toContain("80% (40 decisions reviewed)");
    // reviews still being made in the background: said so, never a bare "none"
    expect(renderToString(h(StatsBlock, { lang: "zh", stats, pending: 2 }))).toContain("计算中");
    const partly = renderToString(h(StatsBlock, { lang: "en", stats: { ...stats, agreement: 0.8, decisions_reviewed: 40 }, pending: 1 }));
    expect(partly).toContain("(1 more being computed)");
    const svg = renderToString(h(PointsChart, { lang: "zh", points: [4, -8, 3], label: "x" }));
    expect((svg.match(/<rect/g) ?? []).length).toBe(3);
    expect(svg).toContain("<polyline");
    expect(renderToString(h(MatchStats, { lang: "zh", gameId: "g" }))).toBe("");
  });
});

describe("a review on its way", () => {
  it("shows the share of the record replayed, and nothing while it waits", () => {
    expect(progressShare({ status: "running", done: 30, total: 120, ahead: 0 })).toBe(0.25);
    expect(progressShare({ status: "queued", done: 0, total: 120, ahead: 2 })).toBe(0);
    expect(progressShare({ status: "running", done: 5, total: 0, ahead: 0 })).toBe(0);
    expect(progressShare(null)).toBe(0);
    expect(progressText("zh", { status: "running", done: 30, total: 120, ahead: 0 })).toContain("25%");
    expect(progressText("en", { status: "running", done: 30, total: 120, ahead: 0 })).toContain("30 / 120 moves");
    expect(progressText("zh", { status: "queued", done: 0, total: 0, ahead: 2 })).toContain("前面还有 2 个");
    expect(progressText("en", { status: "queued", done: 0, total: 0, ahead: 0 })).toContain("waiting");
  });
  it("asks 我的对局 again only while some game's review is being made", () => {
    expect(reviewsPending([{ review: { status: "done" } }, {}])).toBe(false);
    expect(reviewsPending([{ review: { status: "done" } }, { review: { status: "running" } }])).toBe(true);
    expect(reviewsPending([{ review: { status: "queued" } }])).toBe(true);
    expect(reviewsPending([{ review: { status: "off" } }, { review: { status: "failed" } }])).toBe(false);
  });
});

describe("review text", () => {
  it("counts in the singular for one in English and the same way in Chinese", () => {
    expect(count("en", "match", 1)).toBe("1 match");
    expect(count("en", "match", 2)).toBe("2 matches");
    expect(count("en", "hand", 1)).toBe("1 hand");
    expect(count("en", "decision", 0)).toBe("0 decisions");
    expect(count("zh", "match", 1)).toBe("1 场");
    expect(count("zh", "hand", 3)).toBe("3 局");
  });

  it("has no full-width punctuation in any English string", () => {
    const keys = reviewTextKeys();
    expect(keys).toContain("mine.after.line");
    for (const k of keys) expect(rt("en", k), k).not.toMatch(/[：（），、；。“”]/);
    expect(rt("zh", "colon")).toBe("：");
  });
});
