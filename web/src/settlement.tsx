// The settlement of a hand, explained: who won and how, the items and the formula, every
// payment by reason (kong money paid during the hand apart), 钓鱼 and the match ledger.
import { useEffect, useRef, useState } from "preact/hooks";
import { tr, type Lang } from "./i18n";
import { bilingual, itemName, seatName, signed, type ItemNames } from "./names";
import { parsePieces, sortPieces, type Piece } from "./notation";
import { Melds, Pieces } from "./pieces";
import { settlementParts, type Json, type RoomInfo } from "./state";

/** Payments made before the win or the draw (kong money), and those of the settlement. */
export function splitPayments(events: Json[]): { during: Json[]; settle: Json[] } {
  const during: Json[] = [];
  const settle: Json[] = [];
  let over = false;
  for (const e of events) {
    if (e.type === "win" || e.type === "exhaustive_draw" || e.type === "exhausted") over = true;
    if (e.type === "payment") (over ? settle : during).push(e);
  }
  return { during, settle };
}

/** The explanation's payments as (payer, payee, reason) → amount. */
function totals(list: Json[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of list) {
    const k = `${p.payer}|${p.payee}|${p.reason}`;
    out.set(k, (out.get(k) ?? 0) + p.amount);
  }
  return out;
}

/** Payment events the explanation does not list (so that none is shown twice or hidden). */
export function uncovered(events: Json[], explained: Json[]): Json[] {
  const left = totals(explained);
  const out: Json[] = [];
  for (const p of events) {
    const k = `${p.payer}|${p.payee}|${p.reason}`;
    const have = left.get(k) ?? 0;
    if (have >= p.amount) left.set(k, have - p.amount);
    else {
      left.set(k, 0);
      out.push({ ...p, amount: p.amount - have });
    }
  }
  return out;
}

/** The rules' explanation: the formula with its numbers, one line each, with its seed item. */
export function Formula(props: { lang: Lang; steps: Json[] }) {
  if (!props.steps.length) return null;
  return (
    <ol class="formula" data-testid="formula">
      {props.steps.map((s) => (
        <li>
          {bilingual(props.lang, s)}
          {s.seed ? (
            <span class="rule-id" title={tr(props.lang, "lobby.rulebook")}>
              {s.seed}
            </span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function SettlementView(props: {
  lang: Lang;
  room: RoomInfo | null;
  me: number | null;
  variant: string;
  winners: number[];
  exhausted: boolean;
  net: number[];
  events: Json[];
  state: Json;
  items: ItemNames;
  explanation?: unknown;
}) {
  const { lang, variant } = props;
  const parts = settlementParts(props.events);
  const name = (s: number) => seatName(lang, props.room, s, props.me);
  const players: Json[] = props.state?.players ?? [];
  const n = props.net.length || players.length;
  const split = splitPayments(props.events);
  const end = props.events.find((e) => e.type === "end");
  const explanation: Json | null = (props.explanation as Json | null) ?? end?.explanation ?? null;
  const explained: Json[] = Array.isArray(explanation?.payments) ? explanation!.payments : [];
  const formula: Json[] = Array.isArray(explanation?.formula) ? explanation!.formula : [];
  // with an explanation, its worded payments; payment events it leaves out stay listed apart
  const during = explained.length ? uncovered(split.during.concat(split.settle), explained) : split.during;
  const settle = explained.length ? explained : split.settle;
  const fish = props.events.find((e) => e.type === "fish");
  const reason = (p: Json) => (p.zh || p.en ? bilingual(lang, p) : itemName(props.items, variant, p.reason, undefined, lang));
  const payList = (list: Json[], testid: string) => (
    <ul class="payments" data-testid={testid}>
      {list.map((p) => (
        <li>
          {tr(lang, "settle.pays", { a: name(p.payer), b: name(p.payee), v: p.amount })} <span class="reason">{reason(p)}</span>
        </li>
      ))}
    </ul>
  );
  return (
    <div class="settlement-body">
      {props.winners.length === 0 || props.exhausted ? <p class="headline">{tr(lang, "settle.exhausted")}</p> : null}
      {props.winners.map((w) => {
        const p = players[w] ?? {};
        const winPiece: Piece | undefined = parts.win?.tile ?? parts.win?.card;
        return (
          <div class="winner" data-testid={`winner-${w}`}>
            <p class="headline">
              {tr(lang, "settle.win", { who: name(w) })}
              {parts.win?.how === "self_draw" ? ` · ${tr(lang, "settle.selfdrawn")}` : ""}
              {parts.win?.how !== "self_draw" && parts.win?.from !== undefined
                ? ` · ${tr(lang, "settle.discard", { who: name(parts.win.from) })}`
                : ""}
            </p>
            <div class="row">
              <Pieces variant={variant} pieces={sortPieces(variant, parsePieces(variant, p.hand))} small lang={lang} />
              <Melds variant={variant} melds={p.melds ?? []} small lang={lang} owner={w} n={n} seatLabel={name} />
              {winPiece ? (
                <span class="win-piece" title={tr(lang, "calc.win_tile")}>
                  <Pieces variant={variant} pieces={[winPiece]} small lang={lang} />
                </span>
              ) : null}
            </div>
          </div>
        );
      })}
      {players.some((p) => p.knocked) ? (
        <p data-testid="settle-knocked">
          {tr(lang, "settle.knocked", { who: players.map((p, s) => (p.knocked ? name(s) : "")).filter(Boolean).join("、") })}
        </p>
      ) : null}
      <Formula lang={lang} steps={formula} />
      {parts.scores.map((sc) => (
        <div class="score-block" data-testid={`score-${sc.seat}`}>
          <h4>{name(sc.seat)}</h4>
          <table class="items">
            <tbody>
              {(sc.items ?? []).map((it: Json) => (
                <tr>
                  <td>{itemName(props.items, variant, it.id, it.name, lang)}</td>
                  <td class="num">{it.value}</td>
                </tr>
              ))}
              <tr class="sum">
                <td colSpan={2}>
                  {sc.per_payer !== undefined
                    ? tr(lang, "settle.perpayer", { v: sc.per_payer })
                    : sc.score !== undefined
                      ? tr(lang, "settle.score", { v: sc.score })
                      : ""}
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      ))}
      {fish ? (
        <div class="fish" data-testid="fish">
          <h4>{tr(lang, "settle.fish", { who: name(fish.seat) })}</h4>
          <ul class="fish-tiles">
            {parsePieces(variant, fish.tiles).map((t, i) => {
              const seat: number | undefined = fish.hits?.[i];
              const hit = seat !== undefined && props.winners.includes(seat);
              return (
                <li class={hit ? "hit" : undefined} data-testid="fish-tile">
                  <Pieces variant={variant} pieces={[t]} small lang={lang} />
                  {seat !== undefined ? <span>→ {name(seat)}</span> : null}
                  {hit ? <strong> {tr(lang, "settle.fishhit")}</strong> : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {during.length ? (
        <>
          <h4>{tr(lang, "settle.during")}</h4>
          {payList(during, "payments-during")}
        </>
      ) : null}
      <h4>{tr(lang, "settle.payments")}</h4>
      {settle.length ? payList(settle, "payments") : <p>{tr(lang, "settle.nopay")}</p>}
      <table class="net" data-testid="net">
        <tbody>
          <tr>
            {props.net.map((_, s) => (
              <th scope="col">{name(s)}</th>
            ))}
          </tr>
          <tr>
            {props.net.map((v) => (
              <td class={v >= 0 ? "plus" : "minus"}>{signed(v)}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function Ledger(props: { lang: Lang; room: RoomInfo | null; me: number | null; match: Json | null }) {
  const { lang, match } = props;
  if (!match || !match.hands?.length) return null;
  const n = match.totals.length;
  const name = (s: number) => seatName(lang, props.room, s, props.me);
  return (
    <section class="ledger" data-testid="ledger">
      <h3>{tr(lang, "ledger.title")}</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">{tr(lang, "ledger.hand")}</th>
            <th scope="col">{tr(lang, "ledger.winner")}</th>
            {Array.from({ length: n }, (_, s) => (
              <th scope="col">{name(s)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {match.hands.map((h: Json) => (
            <tr>
              <td>{h.index + 1}</td>
              <td>{h.winners.length ? h.winners.map(name).join("、") : tr(lang, "ledger.draw")}</td>
              {h.net.map((v: number) => (
                <td class={v >= 0 ? "num plus" : "num minus"}>{v}</td>
              ))}
            </tr>
          ))}
          <tr class="sum">
            <td colSpan={2}>{tr(lang, "table.total")}</td>
            {match.totals.map((v: number) => (
              <td class={v >= 0 ? "num plus" : "num minus"}>{v}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/**
 * The settlement as a dialog that opens by itself at the end of a hand: the explanation, the
 * ledger, the time to the next deal and 准备. Focus moves into it and Escape closes it.
 */
export function SettlementDialog(props: {
  lang: Lang;
  title: string;
  onClose: () => void;
  onReady: (() => void) | null;
  ready: boolean;
  /** Local clock (performance.now()) when the next hand is dealt, if known. */
  nextAt: number | null;
  children: any;
  footer?: any;
}) {
  const { lang } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    heading.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") props.onClose();
    };
    addEventListener("keydown", onKey);
    const id = setInterval(() => setNow(performance.now()), 500);
    return () => {
      removeEventListener("keydown", onKey);
      clearInterval(id);
    };
  }, []);
  const left = props.nextAt !== null ? Math.max(0, Math.ceil((props.nextAt - now) / 1000)) : null;
  return (
    <div class="overlay" data-testid="settlement-overlay">
      <div class="dialog card-panel settlement" role="dialog" aria-modal="true" aria-labelledby="settle-title" data-testid="settlement">
        <h2 id="settle-title" tabIndex={-1} ref={heading}>
          {props.title}
        </h2>
        <div class="dialog-body">{props.children}</div>
        <div class="dialog-foot">
          {props.footer}
          {left !== null ? (
            <span class="countdown-text" data-testid="next-countdown">
              {tr(lang, "settle.next", { s: left })}
            </span>
          ) : null}
          {props.onReady ? (
            <button class="primary" data-testid="ready" disabled={props.ready} onClick={props.onReady}>
              {tr(lang, props.ready ? "settle.isready" : "settle.ready")}
            </button>
          ) : null}
          <button class="secondary" data-testid="close-settlement" onClick={props.onClose}>
            {tr(lang, "settle.close")}
          </button>
        </div>
      </div>
    </div>
  );
}
