// The settlement of a hand, explained: who won and how, the items and the formula, every
// payment by reason (kong money paid during the hand apart), 钓鱼 and the match ledger.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { joinList, tr, type Lang } from "./i18n";
import { bilingual, itemName, seatName, signed, withSeatNames, type ItemNames } from "./names";
import { isCardVariant, parsePieces, sortPieces, type Piece } from "./notation";
import { Melds, Pieces } from "./pieces";
import { settlementParts, type MatchSoFar, type RoomInfo } from "./state";
import type { FormulaLine, SeatEvent, SeatView } from "./schema/server-messages";
import { eventPiece, fedBy, firstEvent, handView, isQinger, type EventOf, type Explanation, type PlayerView } from "./view";
import { ruleLink, variantsOnce, type VariantInfo } from "./variants";

/** This game's entry of /api/variants (null until it comes, or if it cannot). */
export function useVariantInfo(variant: string): VariantInfo | null {
  const [info, setInfo] = useState<VariantInfo | null>(null);
  useEffect(() => {
    let live = true;
    variantsOnce()
      .then((vs) => live && setInfo(vs.find((v) => v.name === variant) ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [variant]);
  return info;
}

/** A rule-book id as a link to its entry (as text when the book's address is unknown). */
export function RuleRef(props: { lang: Lang; book: string | null | undefined; ids: string | null | undefined }) {
  if (!props.ids) return null;
  const href = ruleLink(props.book, props.ids);
  return href ? (
    <a class="rule-id" href={href} target="_blank" rel="noopener" title={tr(props.lang, "lobby.rulebook")} data-testid="rule-link">
      {props.ids}
    </a>
  ) : (
    <span class="rule-id" title={tr(props.lang, "lobby.rulebook")}>
      {props.ids}
    </span>
  );
}

/** A payment as the settlement lists it: an event, or an explanation's worded line. */
export interface Paid {
  payer: number;
  payee: number;
  amount: number;
  reason: string;
  zh?: string;
  en?: string;
}

/** Payments made before the win or the draw (kong money), and those of the settlement. */
export function splitPayments(events: SeatEvent[]): { during: Paid[]; settle: Paid[] } {
  const during: Paid[] = [];
  const settle: Paid[] = [];
  let over = false;
  for (const e of events) {
    if (e.type === "win" || e.type === "exhaustive_draw" || e.type === "exhausted") over = true;
    if (e.type === "payment") (over ? settle : during).push(e);
  }
  return { during, settle };
}

/** The explanation's payments as (payer, payee, reason) → amount. */
function totals(list: Paid[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of list) {
    const k = `${p.payer}|${p.payee}|${p.reason}`;
    out.set(k, (out.get(k) ?? 0) + p.amount);
  }
  return out;
}

/**
 * Every payment once, beside the explanation's worded lines: ``during`` the payments made
 * before the win or the draw (kong money) that the explanation does not list by reason, and
 * ``extra`` the settlement's payment events it does not cover. The settlement's own events
 * may be split by item (门清 4 + 捉伍儿 3) where the explanation says one line per payer
 * (自摸 7), so they are matched by payer and payee.
 */
export function paymentsApart(events: SeatEvent[], explained: Paid[]): { during: Paid[]; extra: Paid[] } {
  const { during, settle } = splitPayments(events);
  const byReason = totals(explained);
  const left: Paid[] = [];
  for (const p of during) {
    const k = `${p.payer}|${p.payee}|${p.reason}`;
    const have = byReason.get(k) ?? 0;
    const used = Math.min(have, p.amount);
    byReason.set(k, have - used);
    if (used < p.amount) left.push({ ...p, amount: p.amount - used });
  }
  const byPair = new Map<string, number>();
  for (const [k, v] of byReason) {
    const pair = k.split("|").slice(0, 2).join("|");
    byPair.set(pair, (byPair.get(pair) ?? 0) + v);
  }
  const extra: Paid[] = [];
  for (const p of settle) {
    const k = `${p.payer}|${p.payee}`;
    const have = byPair.get(k) ?? 0;
    const used = Math.min(have, p.amount);
    byPair.set(k, have - used);
    if (used < p.amount) extra.push({ ...p, amount: p.amount - used });
  }
  return { during: left, extra };
}

/** The rules' explanation: the formula with its numbers, one line each, with its seed item. */
export function Formula(props: { lang: Lang; steps: FormulaLine[]; book?: string | null; seat?: (s: number) => string }) {
  if (!props.steps.length) return null;
  const { lang, seat } = props;
  return (
    <ol class="formula" data-testid="formula">
      {props.steps.map((s) => (
        <li>
          {seat ? withSeatNames(lang, bilingual(lang, s), seat) : bilingual(lang, s)} <RuleRef lang={props.lang} book={props.book} ids={s.rule} />
        </li>
      ))}
    </ol>
  );
}

/** Who fed the win: the win's ``from`` (Qing'er), else the seat whose discard (or added
 * kong, when robbed) it was won on (mahjong's win event does not name it). */
export function feederOf(events: SeatEvent[], win: EventOf<"win">): number | undefined {
  if (win.how === "self_draw") return undefined;
  const named = fedBy(win);
  if (named !== undefined) return named;
  const at = events.lastIndexOf(win);
  for (let i = (at < 0 ? events.length : at) - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "discard" || e.type === "added_kong") return e.seat;
  }
  return undefined;
}

/** Whether a winner's value per payer is paid by the discarder alone (not by each seat). */
function paidAsDiscard(score: EventOf<"score">, win: EventOf<"win"> | null): boolean {
  if ("counts_as" in score) return score.counts_as !== "self_draw";
  return !!win && win.how !== "self_draw";
}

export function SettlementView(props: {
  lang: Lang;
  room: RoomInfo | null;
  me: number | null;
  variant: string;
  winners: number[];
  exhausted: boolean;
  net: number[];
  events: SeatEvent[];
  state: SeatView;
  items: ItemNames;
  explanation?: Explanation | null;
}) {
  const { lang, variant } = props;
  const parts = settlementParts(props.events);
  const info = useVariantInfo(variant);
  const book = info?.ruleBook ?? null;
  const name = (s: number) => seatName(lang, props.room, s, props.me);
  const players: PlayerView[] = handView(props.state)?.players ?? [];
  const n = props.net.length || players.length;
  const split = splitPayments(props.events);
  const explanation = props.explanation ?? firstEvent(props.events, "end")?.explanation ?? null;
  const explained: Paid[] = explanation?.payments ?? [];
  const formula: FormulaLine[] = explanation?.formula ?? [];
  // with an explanation, its worded payments; payment events it leaves out stay listed apart
  const apart = paymentsApart(props.events, explained);
  const during = explained.length ? apart.during : split.during;
  const settle = explained.length ? explained.concat(apart.extra) : split.settle;
  const fish = firstEvent(props.events, "fish");
  const view = handView(props.state);
  const indicator = view && isQinger(view) && view.indicator ? { card: view.indicator, ranks: view.jian_pai ?? "" } : null;
  const reason = (p: Paid) => (p.zh || p.en ? withSeatNames(lang, bilingual(lang, p), name) : itemName(props.items, variant, p.reason, undefined, lang));
  const payList = (list: Paid[], testid: string) => (
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
        const p: PlayerView | undefined = players[w];
        const winPiece: Piece | undefined = parts.win ? eventPiece(parts.win) : undefined;
        const fed = parts.win ? feederOf(props.events, parts.win) : undefined;
        const flowers = parsePieces(variant, p?.flowers);
        return (
          <div class="winner" data-testid={`winner-${w}`}>
            <p class="headline">
              {tr(lang, "settle.win", { who: name(w) })}
              {parts.win?.how === "self_draw" ? ` · ${tr(lang, "settle.selfdrawn")}` : ""}
              {parts.win?.how !== "self_draw" && fed !== undefined ? ` · ${tr(lang, "settle.discard", { who: name(fed) })}` : ""}
            </p>
            <div class="row">
              <Pieces variant={variant} pieces={sortPieces(variant, parsePieces(variant, p?.hand))} small lang={lang} buttons />
              <Melds variant={variant} melds={p?.melds ?? []} small lang={lang} owner={w} n={n} seatLabel={name} buttons />
              {flowers.length ? (
                <span class="flowers" title={tr(lang, isCardVariant(variant) ? "table.jokers" : "table.flowers")} data-testid="winner-flowers">
                  <Pieces variant={variant} pieces={flowers} small lang={lang} buttons />
                </span>
              ) : null}
              {winPiece ? (
                <span class="win-piece" title={tr(lang, "calc.win_tile")}>
                  <Pieces variant={variant} pieces={[winPiece]} small lang={lang} buttons />
                </span>
              ) : null}
            </div>
          </div>
        );
      })}
      {players.some((p) => "knocked" in p && p.knocked) ? (
        <p data-testid="settle-knocked">
          {tr(lang, "settle.knocked", { who: joinList(lang, players.map((p, s) => ("knocked" in p && p.knocked ? name(s) : "")).filter(Boolean)) })}
        </p>
      ) : null}
      {indicator ? (
        <p class="indicator" data-testid="settle-indicator">
          <span>{tr(lang, "table.indicator")}</span> <Pieces variant={variant} pieces={[indicator.card]} small lang={lang} buttons />{" "}
          <span class="ranks">{tr(lang, "table.jianpai", { r: indicator.ranks })}</span>
        </p>
      ) : null}
      <Formula lang={lang} steps={formula} book={book} seat={name} />
      {parts.scores.map((sc: EventOf<"score">) => (
        <div class="score-block" data-testid={`score-${sc.seat}`}>
          <h4>{name(sc.seat)}</h4>
          <table class="items">
            <tbody>
              {sc.items.map((it) => (
                <tr>
                  <td>
                    {itemName(props.items, variant, it.id, it.name, lang)} <RuleRef lang={lang} book={book} ids={info?.itemRules[it.id]} />
                  </td>
                  <td class="num">{it.value}</td>
                </tr>
              ))}
              <tr class="sum">
                <td colSpan={2}>
                  {"per_payer" in sc
                    ? tr(lang, paidAsDiscard(sc, parts.win) ? "settle.perpayer.one" : "settle.perpayer", { v: sc.per_payer })
                    : tr(lang, "settle.score", { v: sc.score })}
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
              const seat: number | undefined = fish.hits[i];
              const hit = seat !== undefined && props.winners.includes(seat);
              return (
                <li class={hit ? "hit" : undefined} data-testid="fish-tile">
                  <Pieces variant={variant} pieces={[t]} small lang={lang} buttons />
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

export function Ledger(props: { lang: Lang; room: RoomInfo | null; me: number | null; match: MatchSoFar | null }) {
  const { lang, match } = props;
  const hands = match?.hands ?? [];
  if (!match || !hands.length) return null;
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
          {hands.map((h) => (
            <tr>
              <td>{h.index + 1}</td>
              <td>{h.winners.length ? joinList(lang, h.winners.map(name)) : tr(lang, "ledger.draw")}</td>
              {h.net.map((v) => (
                <td class={v >= 0 ? "num plus" : "num minus"}>{v}</td>
              ))}
            </tr>
          ))}
          <tr class="sum">
            <td colSpan={2}>{tr(lang, "table.total")}</td>
            {match.totals.map((v) => (
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
  children: ComponentChildren;
  footer?: ComponentChildren;
  /** Switch the page's language: the dialog covers the top bar on a phone, so it carries its own. */
  onLang?: () => void;
}) {
  const { lang } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const [now, setNow] = useState(performance.now());
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  // bound before the dialog is painted: an Escape pressed as soon as it shows must close it
  useLayoutEffect(() => {
    heading.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose.current();
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
        <div class="dialog-head">
          <h2 id="settle-title" tabIndex={-1} ref={heading}>
            {props.title}
          </h2>
          {props.onLang ? (
            <button class="lang" data-testid="settlement-lang-switch" onClick={props.onLang}>
              {tr(lang, "lang.switch")}
            </button>
          ) : null}
        </div>
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
