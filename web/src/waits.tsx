// Help for the hand, read from the seat's own view: the waits with the copies still unseen,
// whether each would be a legal win now (and why not), and Qing'er's running score against
// the gate. Nothing here is computed by the client: without those view fields it shows nothing.
import { anyPieceName, PieceView } from "./faces";
import { tr, type Lang } from "./i18n";
import { bilingual } from "./names";
import type { Json } from "./state";

export interface Wait {
  piece: string;
  unseen: number | null;
  legal: boolean | null;
  reason: string;
}

/** The waits a view carries for ``seat``, in one shape (the engine's field names vary by game). */
export function viewWaits(lang: Lang, view: Json, seat: number): Wait[] {
  const raw = view.players?.[seat]?.waits ?? view.waits;
  if (!Array.isArray(raw)) return [];
  return raw
    .map((w: Json | string) => {
      if (typeof w === "string") return { piece: w, unseen: null, legal: null, reason: "" };
      const legal = w.legal ?? w.win ?? w.can_win ?? null;
      return {
        piece: String(w.tile ?? w.card ?? w.piece ?? ""),
        unseen: typeof (w.unseen ?? w.left) === "number" ? (w.unseen ?? w.left) : null,
        legal: typeof legal === "boolean" ? legal : null,
        reason: bilingual(lang, w.reason),
      };
    })
    .filter((w: Wait) => w.piece);
}

export function Waits(props: { lang: Lang; variant: string; view: Json; seat: number }) {
  const { lang, variant, view, seat } = props;
  const waits = viewWaits(lang, view, seat);
  const me: Json = view.players?.[seat] ?? {};
  const running = me.running_score ?? me.score_so_far ?? view.running_score;
  const gate = view.win_threshold ?? view.gate ?? me.gate;
  if (!waits.length && typeof running !== "number") return null;
  return (
    <div class="help" data-testid="waits">
      {typeof running === "number" ? (
        <span class={typeof gate === "number" && running > gate ? "gate ok" : "gate"} data-testid="running-score">
          {tr(lang, "help.running", { v: running, g: gate ?? "" })}
        </span>
      ) : null}
      {waits.length ? <span>{tr(lang, "help.waits")}</span> : null}
      {waits.map((w) => (
        <span
          class={`wait${w.legal === false ? " no" : ""}`}
          data-testid="wait"
          title={w.reason || undefined}
          aria-label={`${anyPieceName(variant, w.piece, lang)}${w.unseen !== null ? ` · ${tr(lang, "help.left", { n: w.unseen })}` : ""}${w.reason ? ` · ${w.reason}` : ""}`}
        >
          <span class="pc inline">
            <PieceView variant={variant} piece={w.piece} lang={lang} />
          </span>
          {w.unseen !== null ? <small>×{w.unseen}</small> : null}
          {w.legal === false && w.reason ? <small class="why">{w.reason}</small> : null}
        </span>
      ))}
    </div>
  );
}
