// Help for the hand, read from the seat's own view: the waits with the copies still unseen,
// whether each would be a legal win now by self-draw and on a discard (and why not), and
// Qing'er's gate. Nothing here is computed by the client: without those fields it shows nothing.
import { anyPieceName } from "./faces";
import { PcButton } from "./pieces";
import { bracket, tr, type Lang } from "./i18n";
import { bilingual } from "./names";
import type { Json } from "./state";

export interface WinCheck {
  /** null: the view does not say. */
  ok: boolean | null;
  reason: string;
}

export interface Wait {
  piece: string;
  unseen: number | null;
  selfDraw: WinCheck;
  discard: WinCheck;
  /** Qing'er: the total the gate compares, for this wait. */
  value: number | null;
}

/** A view's ``null`` (legal) or refusal {code, zh, en}; older forms: a boolean plus a reason. */
function check(lang: Lang, v: unknown, present: boolean): WinCheck {
  if (!present) return { ok: null, reason: "" };
  if (v === null || v === true) return { ok: true, reason: "" };
  if (v === false) return { ok: false, reason: "" };
  return { ok: false, reason: bilingual(lang, v) };
}

/** The waits a view carries for ``seat``, in one shape. */
export function viewWaits(lang: Lang, view: Json, seat: number): Wait[] {
  const raw = view.waits ?? view.players?.[seat]?.waits;
  if (!Array.isArray(raw)) return [];
  return raw
    .map((w: Json | string): Wait => {
      if (typeof w === "string") return { piece: w, unseen: null, selfDraw: check(lang, null, false), discard: check(lang, null, false), value: null };
      const left = w.left ?? w.unseen;
      let selfDraw = check(lang, w.self_draw, "self_draw" in w);
      let discard = check(lang, w.discard, "discard" in w);
      if (!("self_draw" in w) && !("discard" in w) && typeof (w.legal ?? w.win) === "boolean") {
        // one answer for both ways of winning
        selfDraw = discard = { ok: !!(w.legal ?? w.win), reason: bilingual(lang, w.reason) };
      }
      return {
        piece: String(w.tile ?? w.card ?? w.piece ?? ""),
        unseen: typeof left === "number" ? left : null,
        selfDraw,
        discard,
        value: typeof w.value === "number" ? w.value : null,
      };
    })
    .filter((w: Wait) => w.piece);
}

export interface GateScore {
  running: number;
  threshold: number;
  /** The running score already clears the gate (more than, or at least, the threshold). */
  clears: boolean;
}

/** Qing'er: the seat's running score against the threshold, as its own view states it
 * (``gate.running``; null before the 见张 is up, for a spectator, in other games). */
export function gateScore(view: Json): GateScore | null {
  const g = view?.gate;
  if (!g || typeof g.running !== "number" || typeof g.threshold !== "number") return null;
  const clears = g.strict === false ? g.running >= g.threshold : g.running > g.threshold;
  return { running: g.running, threshold: g.threshold, clears };
}

/** "分数 37 / 60" beside the hand, with what it counts in its title. */
export function RunningScore(props: { lang: Lang; view: Json }) {
  const score = gateScore(props.view);
  if (!score) return null;
  const { lang } = props;
  const text = tr(lang, "help.running", { v: score.running, g: score.threshold });
  return (
    <span
      class={`tag running${score.clears ? " ok" : ""}`}
      data-testid="running-score"
      data-running={score.running}
      data-threshold={score.threshold}
      title={tr(lang, "help.running.title", { g: score.threshold })}
      aria-label={text + bracket(lang, tr(lang, "help.running.title", { g: score.threshold }))}
    >
      {text}
    </span>
  );
}

function why(lang: Lang, w: Wait): string {
  const parts: string[] = [];
  if (w.selfDraw.ok === false) parts.push(`${tr(lang, "help.selfdraw")}：${w.selfDraw.reason || tr(lang, "help.notwin")}`);
  if (w.discard.ok === false) parts.push(`${tr(lang, "help.ondiscard")}：${w.discard.reason || tr(lang, "help.notwin")}`);
  return parts.join("；");
}

export function Waits(props: { lang: Lang; variant: string; view: Json; seat: number }) {
  const { lang, variant, view, seat } = props;
  const waits = viewWaits(lang, view, seat);
  const gate: number | null = typeof view.gate?.threshold === "number" ? view.gate.threshold : null;
  if (!waits.length) return null;
  return (
    <div class="help" data-testid="waits" role="group" aria-label={tr(lang, "help.waits")}>
      <span>{tr(lang, "help.waits")}</span>
      {gate !== null ? (
        <span class="gate" data-testid="gate">
          {tr(lang, "help.gate", { g: gate })}
        </span>
      ) : null}
      {waits.map((w) => {
        const none = w.selfDraw.ok === false && w.discard.ok === false;
        const reason = why(lang, w);
        const label = [
          anyPieceName(variant, w.piece, lang),
          w.unseen !== null ? tr(lang, "help.left", { n: w.unseen }) : "",
          w.value !== null ? tr(lang, "help.value", { v: w.value }) : "",
          reason,
        ]
          .filter(Boolean)
          .join(" · ");
        return (
          <span class={`wait${none ? " no" : ""}${reason && !none ? " partly" : ""}`} data-testid="wait" title={reason || undefined} aria-label={label}>
            <PcButton variant={variant} piece={w.piece} lang={lang} class="inline" />
            {w.unseen !== null ? <small>×{w.unseen}</small> : null}
            {w.value !== null ? <small class={gate !== null && w.value > gate ? "ok" : "why"}>{tr(lang, "help.value", { v: w.value })}</small> : null}
            {reason ? <small class="why">{reason}</small> : null}
          </span>
        );
      })}
    </div>
  );
}
