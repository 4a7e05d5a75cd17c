// The review (复盘) as data: the server's review object (paiju review --json, with each
// decision's view), how much each decision gave up, moving between decisions, and the
// 我的对局 chart. Pure functions, no DOM.
import type { ReviewAnswer, ReviewCandidate, ReviewDecision, ReviewProgress as ProgressAnswer } from "../schema/server-messages";
import type { HandView } from "../view";
import type { Lang } from "../i18n";
import { botLevelName } from "../names";

export type Candidate = ReviewCandidate;

/** A decision (the generated ``ReviewDecision``) with its view typed as a hand's: the
 * server reviews decisions, which are only ever taken in a hand. */
export interface Decision extends Omit<ReviewDecision, "view"> {
  /** The table as the reviewed seat saw it before choosing (its own view). */
  view?: HandView & { match_totals?: number[] };
}

/** The server's review (``ReviewAnswer``, GET /api/games/{id}/review, POST /api/review). */
export interface ReviewDoc extends Omit<ReviewAnswer, "mistakes" | "decisions"> {
  mistakes: Decision[];
  decisions: Decision[];
}

export type Severity = "ok" | "near" | "small" | "medium" | "large";

/** Expected points given up from which a mistake is called medium, and large, in units
 * of a game's spread of points: one unit is about what a Jiaxing hand moves (the spread
 * of points per hand in greedy self-play: Jiaxing 3.6, Taixing 5.2, Qing'er 357). */
export const MEDIUM = 0.3;
export const LARGE = 1.0;
const UNIT: Record<string, number> = { jiaxing: 1, taixing: 1.5, qinger: 100 };

/** The points from which a decision of ``variant`` is a medium and a large mistake. */
export function thresholds(variant: string | undefined): { medium: number; large: number } {
  const unit = UNIT[variant ?? ""] ?? 1;
  return { medium: MEDIUM * unit, large: LARGE * unit };
}

/** How bad one decision was: the bot's own choice (or as good), within the tolerance, or a
 * mistake by the points it gave up. */
export function severity(d: Pick<Decision, "agree" | "given_up">, variant?: string): Severity {
  if (d.agree) return "ok";
  if (!(d.given_up > 0)) return "near";
  const t = thresholds(variant);
  if (d.given_up >= t.large) return "large";
  if (d.given_up >= t.medium) return "medium";
  return "small";
}

export function isMistake(d: Decision): boolean {
  return d.given_up > 0;
}

/** The index in ``decisions`` of a decision listed among the mistakes. */
export function indexOf(doc: ReviewDoc, d: Pick<Decision, "hand" | "turn">): number {
  return doc.decisions.findIndex((x) => x.hand === d.hand && x.turn === d.turn);
}

/** The next (``dir`` 1) or previous (-1) mistake from ``i``; ``i`` itself when there is none. */
export function nextMistake(decisions: Decision[], i: number, dir: 1 | -1): number {
  for (let k = i + dir; k >= 0 && k < decisions.length; k += dir) if (isMistake(decisions[k])) return k;
  return i;
}

/** Where a key takes the review from decision ``i`` of ``decisions``; null: not a review key. */
export function keyStep(key: string, i: number, decisions: Decision[]): number | null {
  const last = decisions.length - 1;
  switch (key) {
    case "ArrowRight":
      return Math.min(i + 1, last);
    case "ArrowLeft":
      return Math.max(i - 1, 0);
    case "Home":
      return 0;
    case "End":
      return last;
    case "ArrowDown":
    case "PageDown":
      return nextMistake(decisions, i, 1);
    case "ArrowUp":
    case "PageUp":
      return nextMistake(decisions, i, -1);
    default:
      return null;
  }
}

/** A sideways swipe of ``dx`` px (``dy`` down): -1 back, 1 on, 0 not a swipe. */
export function swipeStep(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}

/** The candidates of a decision as the panel lists them: best value first, the choice made
 * and the bot's always among them (the server sends those). */
export function rankedCandidates(d: Decision): Candidate[] {
  return d.candidates.slice().sort((a, b) => (b.points ?? -Infinity) - (a.points ?? -Infinity) || a.action.localeCompare(b.action));
}

/** The discard candidates by piece ("d5m" → "5m"): what the tiles of the hand carry. */
export function discardValues(d: Decision): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  for (const c of d.candidates) {
    const m = /^d(.+)$/.exec(c.action);
    if (m && /^[0-9JQKBSA]/.test(m[1])) out.set(m[1], c);
  }
  return out;
}

export function formatPoints(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  const r = Math.round(v * 100) / 100;
  return (r > 0 ? "+" : r < 0 ? "−" : "") + Math.abs(r).toFixed(2);
}

export function formatShare(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  return `${Math.round(v * 1000) / 10}%`;
}

/** The seat names of a record's header line, or null when the text is not a paiju record. */
export function recordSeats(text: string): string[] | null {
  const first = text.split("\n", 1)[0]?.trim();
  if (!first) return null;
  try {
    const head = JSON.parse(first);
    if (head && head.record === "paiju" && Array.isArray(head.seats)) return head.seats.map((s: unknown) => String(s));
  } catch {
    /* not JSON */
  }
  return null;
}

/** A header name as a person reads it: "bot:strong" is a bot of that level. */
export function seatLabel(name: string): { bot: string | null; name: string } {
  return name.startsWith("bot:") ? { bot: name.slice(4), name: "" } : { bot: null, name };
}

/** Every seat token this browser kept (one per room it sat down in; see ../socket.ts). */
export function keptTokens(storage: Pick<Storage, "length" | "key" | "getItem">): string[] {
  const out: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key || !key.startsWith("paiju.token.")) continue;
    const token = storage.getItem(key);
    if (token && token.length <= 64 && !out.includes(token)) out.push(token);
  }
  return out.slice(0, 200);
}

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

export interface Chart {
  width: number;
  height: number;
  zero: number;
  bars: ChartBar[];
  line: string;
  min: number;
  max: number;
}

/** Bars for each match's points and a polyline of the running total, in a box of
 * ``width`` × ``height`` with the zero line at ``zero``. */
export function chart(points: number[], width = 320, height = 140): Chart {
  const running: number[] = [];
  points.forEach((p, i) => running.push((running[i - 1] ?? 0) + p));
  const all = [0, ...points, ...running];
  const max = Math.max(...all);
  const min = Math.min(...all);
  const span = max - min || 1;
  const pad = 6;
  const y = (v: number) => pad + ((max - v) / span) * (height - 2 * pad);
  const step = points.length ? (width - 2 * pad) / points.length : 0;
  const zero = y(0);
  // a few matches are thin bars, not walls
  const barWidth = Math.min(step * 0.7, 24);
  const bars = points.map((p, i) => ({
    x: pad + (i + 0.5) * step - barWidth / 2,
    y: Math.min(y(p), zero),
    width: barWidth,
    height: Math.max(1, Math.abs(y(p) - zero)),
    value: p,
  }));
  const line = running.map((r, i) => `${(pad + (i + 0.5) * step).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  return { width, height, zero, bars, line, min, max };
}

/** "2 号位 · 阿明", "seat 3 · bot (strong)": a seat of a record as the review names it. */
export function seatTitle(lang: Lang, names: string[], seat: number): string {
  const label = seatLabel(names[seat] ?? "");
  const number = lang === "en" ? `seat ${seat + 1}` : `${seat + 1} 号位`;
  if (label.bot) {
    const level = botLevelName(lang, label.bot);
    return lang === "en" ? `${number} · bot (${level})` : `${number} · 机器人（${level}）`;
  }
  return label.name ? `${number} · ${label.name}` : number;
}

/** A stored time (seconds since 1970, or ISO text) as a local date and time. */
export function shortDate(lang: Lang, v: unknown): string {
  if (v === null || v === undefined || v === "") return "";
  const d = typeof v === "number" ? new Date(v < 1e12 ? v * 1000 : v) : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return d.toLocaleString(lang === "en" ? "en-GB" : "zh-CN", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

/** A review on its way (the server's 202): how many moves of the record are replayed of
 * how many, and how many reviews run before it. */
/** How far a review not done yet got (the 202 answer, ``ReviewProgress``, less its ``job``). */
export type ReviewProgress = Pick<ProgressAnswer, "status" | "done" | "total" | "ahead">;

/** A review's progress as a review answer (202) or a 我的对局 game's ``review`` tells it. */
export type ProgressLike = { status: string; done?: number | null; total?: number | null; ahead?: number | null };

/** The progress as a share of the record replayed (0–1; 0 while it waits). */
export function progressShare(p: ProgressLike | null | undefined): number {
  const total = p?.total ?? 0;
  if (!p || p.status !== "running" || !(total > 0)) return 0;
  return Math.max(0, Math.min(1, (p.done ?? 0) / total));
}

/** The progress in words: queued behind others, or the share replayed. */
export function progressText(lang: Lang, p: ReviewProgress | null | undefined): string {
  const en = lang === "en";
  if (!p) return en ? "starting…" : "准备中……";
  if (p.status !== "running") {
    return p.ahead > 0
      ? en
        ? `waiting: ${p.ahead} review(s) before this one`
        : `排队中：前面还有 ${p.ahead} 个复盘`
      : en
        ? "waiting for the review worker"
        : "等待复盘进程";
  }
  const pct = Math.round(100 * progressShare(p));
  return en ? `${pct}% of the record valued (${p.done} / ${p.total} moves)` : `已估值 ${pct}%（${p.done} / ${p.total} 步）`;
}

/** Whether 我的对局 should ask again: some listed game's review is still being made. */
export function reviewsPending(games: { review?: { status?: string } | null }[]): boolean {
  return games.some((g) => g.review?.status === "queued" || g.review?.status === "running" || g.review?.status === "waiting");
}
