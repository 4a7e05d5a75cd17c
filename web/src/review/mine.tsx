// 我的对局: this browser's games on the server (found by the seat tokens it kept; no
// accounts), the player's statistics over them (POST /api/mine) and a chart of points by
// match. MatchStats is the same summary, shown at the end of each match.
import { useEffect, useState } from "preact/hooks";
import type { Lang } from "../i18n";
import { signed } from "../names";
import type { ErrorAnswer, MineAnswer, PlayerStatsAnswer, RestAnswers } from "../schema/server-messages";
import { chart, formatShare, keptTokens, progressShare, reviewsPending, seatTitle, shortDate } from "./model";
import { count, rt } from "./text";
import "./review.css";

function variantName(lang: Lang, v: string): string {
  const names: Record<string, [string, string]> = {
    jiaxing: ["嘉兴麻将", "Jiaxing mahjong"],
    taixing: ["泰兴麻将", "Taixing mahjong"],
    qinger: ["青儿", "Qing'er"],
  };
  const pair = names[v];
  return pair ? pair[lang === "en" ? 1 : 0] : v;
}

function tokens(): string[] {
  try {
    return keptTokens(localStorage);
  } catch {
    return [];
  }
}

/** Seconds between two looks while the server is still reviewing some listed game (the
 * server allows about one look a second). */
const AGAIN_S = 4;

/** The answer of POST /api/mine, or before any game (no token kept) an empty one. */
type MineDoc = Omit<MineAnswer, "stats" | "name" | "more"> & { stats: PlayerStatsAnswer | null; name?: string; more?: boolean };

/** POST /api/mine with this browser's tokens; ``tick`` asks again, and so does a listing in
 * which some game's review is still being made (every AGAIN_S seconds). */
function useMine(tick: unknown = 0): { doc: MineDoc | null; error: string | null } {
  const [doc, setDoc] = useState<MineDoc | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (!doc || !reviewsPending(doc.games ?? [])) return;
    const timer = setTimeout(() => setAgain((n) => n + 1), AGAIN_S * 1000);
    return () => clearTimeout(timer);
  }, [doc]);
  useEffect(() => {
    const kept = tokens();
    if (!kept.length) {
      setDoc({ games: [], stats: null, by_variant: {} });
      return;
    }
    fetch("/api/mine", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokens: kept }) })
      .then(async (r) => {
        const body: unknown = await r.json().catch(() => ({}));
        if (!r.ok) {
          const detail = (body as ErrorAnswer | null)?.detail;
          throw new Error(typeof detail === "string" ? detail : `HTTP ${r.status}`);
        }
        setDoc(body as RestAnswers["POST /api/mine"]);
        setError(null);
      })
      .catch((e) => setError(String(e.message ?? e)));
  }, [tick, again]);
  return { doc, error };
}

export function PointsChart(props: { lang: Lang; points: number[]; label: string }) {
  const c = chart(props.points);
  return (
    <svg class="mine-chart" viewBox={`0 0 ${c.width} ${c.height}`} role="img" aria-label={props.label} data-testid="mine-chart">
      <line class="zero" x1={0} x2={c.width} y1={c.zero} y2={c.zero} />
      {c.bars.map((b, k) => (
        <rect class={`bar ${b.value >= 0 ? "plus" : "minus"}`} x={b.x} y={b.y} width={Math.max(1, b.width)} height={b.height}>
          <title>{`${k + 1}: ${signed(b.value)}`}</title>
        </rect>
      ))}
      {props.points.length > 1 ? <polyline class="run" points={c.line} /> : null}
      <text x={c.width - 4} y={12} text-anchor="end" font-size="10">
        {signed(c.max)}
      </text>
      <text x={c.width - 4} y={c.height - 3} text-anchor="end" font-size="10">
        {signed(c.min)}
      </text>
    </svg>
  );
}

export function StatsBlock(props: { lang: Lang; stats: PlayerStatsAnswer; pending?: number }) {
  const { lang, stats: s } = props;
  const pending = props.pending ?? 0;
  const agreement =
    s.agreement === null || s.agreement === undefined
      ? rt(lang, pending ? "mine.agreement.computing" : "mine.agreement.none")
      : rt(lang, "mine.agreement.of", { p: formatShare(s.agreement), n: count(lang, "decision", s.decisions_reviewed) }) +
        (pending ? rt(lang, "mine.agreement.pending", { n: pending }) : "");
  const cells: [string, string, string][] = [
    ["matches", rt(lang, "mine.matches"), String(s.matches)],
    ["hands", rt(lang, "mine.hands"), String(s.hands)],
    ["win-rate", rt(lang, "mine.winrate"), formatShare(s.win_rate)],
    ["self-draw", rt(lang, "mine.selfdraw"), formatShare(s.self_draw_share)],
    ["deal-in", rt(lang, "mine.dealin"), formatShare(s.deal_in_rate)],
    ["pph", rt(lang, "mine.pph"), (s.points_per_hand >= 0 ? "+" : "") + Number(s.points_per_hand).toFixed(2)],
  ];
  const items = Object.entries(s.items ?? {});
  return (
    <div>
      <div class="mine-stats">
        {cells.map(([id, label, v]) => (
          <div class="mine-stat" data-testid={`mine-${id}`}>
            {label}
            <span class="v">{v}</span>
          </div>
        ))}
        <div class="mine-stat" data-testid="mine-agreement">
          {rt(lang, "mine.agreement")}
          <span class="v">{agreement}</span>
        </div>
      </div>
      {items.length ? (
        <p data-testid="mine-items">
          {rt(lang, "mine.items")}
          {rt(lang, "colon")}
          {items.map(([, v]) => `${lang === "en" ? v.en : v.zh} ×${v.count}`).join(rt(lang, "list.sep"))}
        </p>
      ) : null}
    </div>
  );
}

export function MinePage(props: { lang: Lang }) {
  const { lang } = props;
  const { doc, error } = useMine();
  const [tab, setTab] = useState<string>("all");
  if (error) return <p class="error" role="alert">{rt(lang, "mine.error", { m: error })}</p>;
  if (!doc) return <p class="muted">{rt(lang, "mine.loading")}</p>;
  const games = doc.games ?? [];
  const variants = Object.keys(doc.by_variant ?? {});
  const stats: PlayerStatsAnswer | null = tab === "all" ? doc.stats : doc.by_variant?.[tab] ?? null;
  const shown = tab === "all" ? games : games.filter((g) => g.variant === tab);
  return (
    <div class="mine" data-testid="mine">
      <section class="card-panel">
        <h2>{rt(lang, "mine.title")}</h2>
        <p class="muted">{rt(lang, "mine.intro")}</p>
        {!games.length ? <p data-testid="mine-none">{rt(lang, "mine.none")}</p> : null}
        {variants.length ? (
          <div class="mine-tabs" role="group">
            {["all", ...variants].map((v) => (
              <button class={`choice${tab === v ? " on" : ""}`} aria-pressed={tab === v} data-testid={`mine-tab-${v}`} onClick={() => setTab(v)}>
                {v === "all" ? rt(lang, "mine.all") : variantName(lang, v)}
              </button>
            ))}
          </div>
        ) : null}
        {stats && stats.hands ? (
          <>
            <StatsBlock lang={lang} stats={stats} pending={shown.filter((g) => g.review && g.review.status !== "done" && g.review.status !== "failed" && g.review.status !== "off").length} />
            <h3>{rt(lang, "mine.chart")}</h3>
            <PointsChart
              lang={lang}
              points={stats.match_points ?? []}
              label={rt(lang, "mine.chart.label", { v: tab === "all" ? rt(lang, "mine.all") : variantName(lang, tab), n: count(lang, "match", (stats.match_points ?? []).length) })}
            />
          </>
        ) : null}
      </section>
      {shown.length ? (
        <section class="card-panel">
          <h3>{rt(lang, "mine.games")}</h3>
          <ul class="mine-games" data-testid="mine-games">
            {shown.map((g) => (
              <li data-testid="mine-game">
                <time>{shortDate(lang, g.updated_at ?? g.created_at)}</time> · {variantName(lang, g.variant)} ·{" "}
                {seatTitle(lang, g.seats ?? [], g.seat)} · {rt(lang, `mine.status.${g.status}`)}
                {typeof g.total === "number" ? <> · {rt(lang, "mine.total", { v: signed(g.total) })}</> : null}
                {g.reviewed ? (
                  <> · {rt(lang, "mine.reviewed", { p: formatShare(g.reviewed.agreement) })}</>
                ) : g.review?.status === "queued" || g.review?.status === "running" ? (
                  <>
                    {" "}
                    · <span data-testid="mine-reviewing">{rt(lang, "mine.reviewing", { p: formatShare(progressShare(g.review)) })}</span>
                  </>
                ) : g.review?.status === "waiting" ? (
                  <> · {rt(lang, "mine.review.waiting")}</>
                ) : g.review?.status === "failed" ? (
                  <> · {rt(lang, "mine.review.failed")}</>
                ) : null}
                {g.status === "finished" ? (
                  <>
                    {" "}
                    <a href={`#/review/${encodeURIComponent(g.id)}/${g.seat}`} data-testid="mine-review-link">
                      {rt(lang, "review.link")}
                    </a>{" "}
                    <a href={`#/replay/${encodeURIComponent(g.id)}`}>{lang === "en" ? "Replay" : "回放"}</a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {doc.more ? <p class="muted">{rt(lang, "mine.more")}</p> : null}
        </section>
      ) : null}
    </div>
  );
}

/** At the end of a match: the player's record over every game this browser played here. */
export function MatchStats(props: { lang: Lang; gameId: string }) {
  const { lang } = props;
  const { doc } = useMine(props.gameId);
  const s: PlayerStatsAnswer | null = doc?.stats ?? null;
  if (!s || !s.hands) return null;
  return (
    <span class="mine-after" data-testid="match-stats">
      {rt(lang, "mine.after")}
      {rt(lang, "colon")}
      {rt(lang, "mine.after.line", {
        m: count(lang, "match", s.matches),
        h: count(lang, "hand", s.hands),
        w: formatShare(s.win_rate),
        d: formatShare(s.deal_in_rate),
        p: (s.points_per_hand >= 0 ? "+" : "") + Number(s.points_per_hand).toFixed(2),
      })}{" "}
      <a href="#/mine" data-testid="mine-link">
        {rt(lang, "nav.mine")}
      </a>
    </span>
  );
}
