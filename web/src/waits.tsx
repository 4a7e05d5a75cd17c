// Help for the hand, read from the seat's own view: the waits with the copies still unseen,
// whether each would be a legal win now by self-draw and on a discard (and why not), and
// Qing'er's gate. Nothing here is computed by the client: without those fields it shows nothing.
import { anyPieceName } from "./faces";
import { PcButton } from "./pieces";
import { bracket, tr, type Lang } from "./i18n";
import { bilingual } from "./names";
import type { GateView, MahjongWaitView, QingerWaitView, RefusalView } from "./schema/server-messages";

/** What the help reads of the seat's own view (a hand's view, generated from the server's
 * schema): its waits, and Qing'er's gate. */
export interface HelpView {
  waits?: ReadonlyArray<MahjongWaitView | QingerWaitView>;
  gate?: GateView;
}

export interface WinCheck {
  ok: boolean;
  reason: string;
}

export interface Wait {
  piece: string;
  unseen: number;
  selfDraw: WinCheck;
  discard: WinCheck;
  /** Qing'er: the total the gate compares, for this wait. */
  value: number | null;
}

/** A view's ``null`` (legal now) or its refusal {code, zh, en}. */
function check(lang: Lang, refusal: RefusalView | null): WinCheck {
  return refusal === null ? { ok: true, reason: "" } : { ok: false, reason: bilingual(lang, refusal) };
}

/** The waits the seat's own view carries (none for a spectator, between hands, or a hand
 * not one piece short). */
export function viewWaits(lang: Lang, view: HelpView): Wait[] {
  return (view.waits ?? [])
    .map(
      (w): Wait => ({
        piece: "tile" in w ? w.tile : w.card,
        unseen: w.left,
        selfDraw: check(lang, w.self_draw),
        discard: check(lang, w.discard),
        value: "value" in w ? w.value : null,
      }),
    )
    .filter((w) => w.piece);
}

export interface GateScore {
  running: number;
  threshold: number;
  /** The running score already clears the gate (more than, or at least, the threshold). */
  clears: boolean;
}

/** Qing'er: the seat's running score against the threshold, as its own view states it
 * (``gate.running``; null before the 见张 is up, for a spectator, in other games). */
export function gateScore(view: HelpView): GateScore | null {
  const g = view.gate;
  if (!g || g.running === null) return null;
  const clears = g.strict ? g.running > g.threshold : g.running >= g.threshold;
  return { running: g.running, threshold: g.threshold, clears };
}

/** "分数 37 / 60" beside the hand, with what it counts in its title. */
export function RunningScore(props: { lang: Lang; view: HelpView }) {
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

export function Waits(props: { lang: Lang; variant: string; view: HelpView }) {
  const { lang, variant, view } = props;
  const waits = viewWaits(lang, view);
  const gate: number | null = view.gate?.threshold ?? null;
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
          tr(lang, "help.left", { n: w.unseen }),
          w.value !== null ? tr(lang, "help.value", { v: w.value }) : "",
          reason,
        ]
          .filter(Boolean)
          .join(" · ");
        return (
          <span class={`wait${none ? " no" : ""}${reason && !none ? " partly" : ""}`} data-testid="wait" title={reason || undefined} aria-label={label}>
            <PcButton variant={variant} piece={w.piece} lang={lang} class="inline" />
            <small>×{w.unseen}</small>
            {w.value !== null ? <small class={gate !== null && w.value > gate ? "ok" : "why"}>{tr(lang, "help.value", { v: w.value })}</small> : null}
            {reason ? <small class="why">{reason}</small> : null}
          </span>
        );
      })}
    </div>
  );
}
