// The player's own hand: sorted per game, the drawn piece apart, rearranged by dragging;
// a discard is chosen first and then confirmed (tap again, swipe up, the button or Enter).
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { useContext } from "preact/hooks";
import { anyPieceName, PieceView, Wilds } from "./faces";
import { joinList, tr, type Lang } from "./i18n";
import { actionPiece, actionVerb, isCardVariant, keepArrangement, movePiece, pieceKey, withoutOne, type Piece } from "./notation";
import type { ClientMessage } from "./schema/client-messages";

type Send = (msg: ClientMessage) => void;

export function actionLabel(lang: Lang, action: string): string {
  return tr(lang, `act.${actionVerb(action)}`);
}

/** The key that plays an action (one key each for 碰 / 杠 / 胡 / 过). */
export function actionKey(action: string): string | null {
  const v = actionVerb(action);
  if (v === "pong") return "p";
  if (v === "kong" || v === "an" || v === "jia") return "k";
  if (v === "hu" || v === "zimo") return "h";
  if (v === "pass") return "g";
  if (v.startsWith("chi")) return "c";
  if (v === "knock") return "n";
  if (v === "ting") return "t";
  return null;
}

export function MyHand(props: {
  lang: Lang;
  variant: string;
  hand: Piece[];
  drawn: Piece | null;
  legal: string[];
  turn: number;
  send: Send;
  /** The suit a Taixing seat is dropping (缺门): its tiles dimmed and set aside. */
  aside: string | null;
  /** From the view: each discard that leaves the hand ready, with what it would wait on. */
  readyDiscards: Record<string, string[]>;
  /** Qing'er: the running score against the gate (``RunningScore``), shown with the actions. */
  running?: ComponentChildren;
  onHighlight: (p: Piece | null) => void;
  countdown: any;
}) {
  const { lang, variant, legal, send } = props;
  const wilds = useContext(Wilds);
  const [tingMode, setTingMode] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const arrangement = useRef<Piece[] | null>(null);
  const drag = useRef<number | null>(null);
  const swipe = useRef<{ x: number; y: number; i: number } | null>(null);
  /** A drag or a swipe just ended: the click that follows it is not a tap. */
  const swallow = useRef(false);
  const legalSet = new Set(legal);
  const key = (p: Piece) => pieceKey(variant, p) + (props.aside && p[1] === props.aside && !isCardVariant(variant) ? 1000 : 0);
  // a new suit to drop re-sorts the hand (the old one's tiles were set aside by the sort)
  const asideWas = useRef(props.aside);
  if (asideWas.current !== props.aside) {
    asideWas.current = props.aside;
    arrangement.current = null;
  }
  let rest = props.hand.slice();
  if (props.drawn) rest = withoutOne(rest, props.drawn);
  rest.sort((a, b) => key(a) - key(b));
  rest = keepArrangement(arrangement.current, rest, key);
  arrangement.current = rest;
  const pieces = props.drawn ? rest.concat([props.drawn]) : rest;
  const canTing = legal.some((a) => actionVerb(a) === "tingd");
  const prefix = tingMode && canTing ? "ting" : "d";
  const actionOf = (i: number | null) => (i === null || i >= pieces.length ? null : prefix + pieces[i]);
  const playable = (i: number) => legalSet.has(actionOf(i) ?? "");
  const canDiscard = pieces.some((_, i) => playable(i));

  // a new question (turn) clears the choice
  useEffect(() => {
    setSelected((s) => (s !== null && s < pieces.length ? s : null));
  }, [props.turn]);
  // the chosen piece marks its copies before the paint, so that a tap on a table tile right
  // after a choice marks that tile and is not overwritten by the choice's late effect
  useLayoutEffect(
    () => props.onHighlight(selected !== null ? pieces[selected] ?? null : null),
    [selected, pieces.join()],
  );

  const act = (action: string) => {
    setTingMode(false);
    setSelected(null);
    send({ type: "act", action, turn: props.turn });
  };
  const discard = (i: number) => {
    const a = actionOf(i);
    if (a && legalSet.has(a)) act(a);
  };
  const tap = (i: number) => {
    if (selected === i && playable(i)) discard(i);
    else setSelected(i);
  };
  const buttons = legal.filter((a) => {
    const v = actionVerb(a);
    return v !== "d" && v !== "tingd";
  });

  // keys: ←/→ choose, Enter discard, P 碰 K 杠 H 胡 G/Esc 过, Alt+←/→ move the chosen piece;
  // bound before each paint, so a key acts on the hand and the actions the player sees
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
      if (document.querySelector("[role=dialog]")) return;
      const k = e.key.toLowerCase();
      if (k === "arrowleft" || k === "arrowright") {
        const d = k === "arrowleft" ? -1 : 1;
        if (e.altKey && selected !== null && (!props.drawn || selected < rest.length)) {
          const to = Math.max(0, Math.min(rest.length - 1, selected + d));
          arrangement.current = movePiece(rest, selected, to);
          setSelected(to);
        } else {
          const n = pieces.length;
          setSelected(selected === null ? (d > 0 ? 0 : n - 1) : (selected + d + n) % n);
        }
        e.preventDefault();
        return;
      }
      // Enter on a tile lying on the table presses that tile (it marks its copies): it must
      // not also discard the chosen hand piece
      if (k === "enter" && t?.closest?.("button.pc")) return;
      if (k === "enter" && selected !== null && playable(selected)) {
        discard(selected);
        e.preventDefault();
        return;
      }
      const wanted = k === "escape" ? "g" : k;
      const hit = buttons.find((a) => actionKey(a) === wanted);
      if (hit) {
        act(hit);
        e.preventDefault();
      } else if (k === "t" && canTing) setTingMode(!tingMode);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  const chosen = selected !== null && playable(selected) ? pieces[selected] : null;
  return (
    <div class={`my-hand${isCardVariant(variant) ? " cards" : ""}`}>
      <div class="hand-row" data-testid="my-hand" role="list" aria-label={tr(lang, "hand.label")}>
        {pieces.map((p, i) => {
          const ok = playable(i);
          const isDrawn = props.drawn !== null && i === pieces.length - 1;
          const cls = [
            "hand-piece",
            ok ? "playable" : "",
            isDrawn ? "drawn" : "",
            i === selected ? "selected" : "",
            props.aside && p[1] === props.aside && !isCardVariant(variant) ? "aside" : "",
            ok && props.readyDiscards[p] ? "readies" : "",
          ].join(" ");
          const readies = ok ? props.readyDiscards[p] : undefined;
          const readyText = readies ? tr(lang, "help.readies", { w: joinList(lang, readies.map((w) => anyPieceName(variant, w, lang))) }) : "";
          return (
            <span role="listitem" class={isDrawn ? "drawn-slot" : undefined}>
              <button
                class={cls}
                data-testid="hand-tile"
                data-piece={p}
                data-action={ok ? actionOf(i) : undefined}
                aria-label={
                  anyPieceName(variant, p, lang) +
                  (isDrawn ? ` (${tr(lang, "table.drawn")})` : "") +
                  (wilds.has(p) ? ` · ${tr(lang, "table.wild")}` : "") +
                  (props.aside && p[1] === props.aside && !isCardVariant(variant) ? ` · ${tr(lang, "help.dropping", { s: tr(lang, `suit.${props.aside}`) })}` : "") +
                  (readyText ? ` · ${readyText}` : "")
                }
                title={readyText || undefined}
                aria-pressed={i === selected}
                aria-disabled={!ok}
                draggable={!isDrawn}
                data-index={i}
                onClick={() => {
                  if (swallow.current) swallow.current = false;
                  else tap(i);
                }}
                onDragStart={(e) => {
                  drag.current = i;
                  e.dataTransfer?.setData("text/plain", p);
                }}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  if (drag.current !== null && !isDrawn) {
                    arrangement.current = movePiece(rest, drag.current, i);
                    drag.current = null;
                    setSelected(i);
                  }
                }}
                onPointerDown={(e) => {
                  swallow.current = false;
                  swipe.current = { x: e.clientX, y: e.clientY, i };
                }}
                onPointerUp={(e) => {
                  const s = swipe.current;
                  swipe.current = null;
                  if (!s || s.i !== i) return;
                  const dx = e.clientX - s.x;
                  const dy = e.clientY - s.y;
                  if (-dy > 30 && -dy > Math.abs(dx) && ok) {
                    // a swipe up discards at once
                    swallow.current = true;
                    discard(i);
                  } else if (Math.abs(dx) > 24 && Math.abs(dx) > Math.abs(dy) && !isDrawn && e.pointerType !== "mouse") {
                    // a touch drag sideways moves the piece to where it was let go
                    const under = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-index]") as HTMLElement | null;
                    const to = under ? Number(under.dataset.index) : NaN;
                    if (Number.isInteger(to) && to < rest.length) {
                      arrangement.current = movePiece(rest, i, to);
                      swallow.current = true;
                      setSelected(to);
                    }
                  }
                }}
              >
                <PieceView variant={variant} piece={p} lang={lang} />
              </button>
            </span>
          );
        })}
      </div>
      <div class="actions" data-testid="actions">
        {props.countdown}
        {props.running}
        {props.aside && !isCardVariant(variant) ? (
          <span class="tag dropping" data-testid="dropping" data-suit={props.aside} title={tr(lang, "help.dropping.title")}>
            {tr(lang, pieces.some((p) => p[1] === props.aside) ? "help.dropping" : "help.dropped", { s: tr(lang, `suit.${props.aside}`) })}
          </span>
        ) : null}
        {canDiscard && !chosen ? (
          <span class="hint">{tr(lang, tingMode ? "act.tingmode" : isCardVariant(variant) ? "act.discard.cards" : "act.discard")}</span>
        ) : null}
        {chosen ? (
          <button class="act act-confirm" data-testid="confirm-discard" onClick={() => discard(selected!)}>
            {tr(lang, tingMode ? "act.tingd" : "act.d")}
            <span class="pc inline">
              <PieceView variant={variant} piece={chosen} lang={lang} />
            </span>
          </button>
        ) : null}
        {canTing ? (
          <button class={tingMode ? "act on" : "act"} data-testid="action-tingmode" aria-pressed={tingMode} onClick={() => setTingMode(!tingMode)}>
            {tr(lang, "act.tingd")}
          </button>
        ) : null}
        <span class="claim-buttons">
          {buttons.map((a) => {
            const p = actionPiece(a);
            const k = actionKey(a);
            return (
              <button
                class={`act act-${actionVerb(a)}`}
                data-testid={`action-${a}`}
                aria-keyshortcuts={k ?? undefined}
                onClick={() => act(a)}
              >
                {actionLabel(lang, a)}
                {p ? (
                  <span class="pc inline">
                    <PieceView variant={variant} piece={p} lang={lang} />
                  </span>
                ) : null}
                {k ? <kbd>{k.toUpperCase()}</kbd> : null}
              </button>
            );
          })}
        </span>
      </div>
    </div>
  );
}
