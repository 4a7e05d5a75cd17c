import { useEffect, useState } from "preact/hooks";
import { BackView, PieceView } from "./faces";
import { tr, WINDS_EN, WINDS_ZH, type Lang } from "./i18n";
import type { ItemNames } from "./main";
import {
  actionPiece,
  actionVerb,
  isCardVariant,
  mahjongMeldTiles,
  parseCards,
  parsePieces,
  pieceKey,
  withoutOne,
  type Piece,
} from "./notation";
import { settlementParts, sides, type ClientState, type Json, type RoomInfo, type TimerInfo } from "./state";

type Send = (msg: Json) => void;

export function seatName(lang: Lang, room: RoomInfo | null, seat: number, me: number | null): string {
  const info = room?.seats[seat];
  let name = info?.name || (info?.kind === "bot" ? `${tr(lang, "room.bot")}${seat + 1}` : `${seat + 1}`);
  if (info?.kind === "bot" && !info.name) name = `${tr(lang, "room.bot")} ${seat + 1}`;
  if (seat === me) name += lang === "en" ? ` (${tr(lang, "room.you")})` : `（${tr(lang, "room.you")}）`;
  return name;
}

export function itemName(items: ItemNames, variant: string, id: string, fallback: string | undefined, lang: Lang): string {
  // the event's own name may carry a count ("大鬼 ×2"); keep it, translated when asked
  const row = items[variant]?.[id];
  if (lang === "zh" || !row) return fallback ?? row?.zh ?? id;
  const extra = fallback && fallback.startsWith(row.zh) ? fallback.slice(row.zh.length) : "";
  return row.en + extra;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (!active) return;
    setNow(performance.now());
    const id = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

function Countdown(props: { lang: Lang; timer: TimerInfo | undefined; now: number; testid?: string }) {
  const t = props.timer;
  if (!t) return null;
  // the ticking ``now`` may be up to one tick old when a new clock starts
  const left = Math.max(0, t.ends_at - Math.max(props.now, performance.now()));
  const base = Math.max(0, left - t.bank_ms);
  const text =
    base > 0
      ? tr(props.lang, "table.seconds", { s: Math.ceil(base / 1000) })
      : tr(props.lang, "table.bank", { s: Math.ceil(left / 1000) });
  const frac = t.base_ms > 0 ? Math.min(1, base / t.base_ms) : 0;
  return (
    <span class={base > 0 ? "countdown" : "countdown bank"} data-testid={props.testid}>
      <span class="bar" style={{ width: `${Math.round(frac * 100)}%` }} />
      <span class="label">{text}</span>
    </span>
  );
}

export function Pieces(props: { variant: string; pieces: Piece[]; small?: boolean; testid?: string }) {
  return (
    <span class={props.small ? "pieces small" : "pieces"}>
      {props.pieces.map((p) => (
        <span class="pc" data-testid={props.testid}>
          <PieceView variant={props.variant} piece={p} />
        </span>
      ))}
    </span>
  );
}

export function Melds(props: { variant: string; melds: Json[]; small?: boolean }) {
  const { variant } = props;
  if (!props.melds?.length) return null;
  return (
    <span class="melds">
      {props.melds.map((m) => {
        if (isCardVariant(variant)) {
          return (
            <span class={`meld ${m.type}`} title={m.type}>
              <Pieces variant={variant} pieces={parseCards(m.cards)} small={props.small} />
            </span>
          );
        }
        const tiles = mahjongMeldTiles(m.type, m.tile);
        return (
          <span class={`meld ${m.type}`} title={m.type}>
            <span class={props.small ? "pieces small" : "pieces"}>
              {tiles.map((p, i) => (
                <span class="pc">
                  {m.type === "concealed_kong" && (i === 0 || i === 3) ? (
                    <BackView variant={variant} />
                  ) : (
                    <PieceView variant={variant} piece={p} />
                  )}
                </span>
              ))}
            </span>
          </span>
        );
      })}
    </span>
  );
}

function seatWind(lang: Lang, seat: number, dealer: number, n: number): string {
  const k = (seat - dealer + n) % n;
  return lang === "en" ? WINDS_EN[k] : WINDS_ZH[k];
}

export function PlayerArea(props: {
  lang: Lang;
  state: ClientState;
  seat: number;
  side: string;
  now: number;
  children?: any;
}) {
  const { lang, state, seat, side } = props;
  const game = state.game!;
  const view = game.state;
  const variant = view.variant ?? state.room?.variant ?? "";
  const info: Json = view.players?.[seat] ?? {};
  const room = state.room;
  const seatInfo = room?.seats[seat];
  const n = room?.n_seats ?? 4;
  const dealer = view.dealer ?? 0;
  const isMe = seat === state.seat;
  const acting = (game.to_act ?? []).includes(seat);
  const total = state.match?.totals?.[seat] ?? 0;
  const discards = parsePieces(variant, info.discards);
  const flowers = parsePieces(variant, info.flowers);
  const timer = game.timers.find((t) => t.seat === seat);
  const cards = isCardVariant(variant);
  const hidden = !info.hand && !isMe;
  return (
    <section class={`player side-${side}${acting ? " acting" : ""}${isMe ? " me" : ""}`} data-testid={`seat-${seat}`}>
      <div class="who">
        <span class="wind">{seatWind(lang, seat, dealer, n)}</span>
        {seat === dealer ? <span class="dealer">{tr(lang, "table.dealer")}</span> : null}
        <span class="name">{seatName(lang, room, seat, state.seat)}</span>
        {seatInfo?.kind === "person" && seatInfo.bot_playing ? <span class="tag">{tr(lang, "room.botplaying")}</span> : null}
        {seatInfo?.kind === "person" && !seatInfo.connected && !seatInfo.bot_playing ? (
          <span class="tag">{tr(lang, "room.away")}</span>
        ) : null}
        {info.ready ? <span class="tag ready">{tr(lang, "table.ready")}</span> : null}
        {info.knocked ? <span class="tag ready">{tr(lang, "table.knocked")}</span> : null}
        {info.plays === false ? <span class="tag">{tr(lang, "table.sitsout")}</span> : null}
        <span class={total >= 0 ? "score plus" : "score minus"} data-testid={`total-${seat}`}>
          {total > 0 ? `+${total}` : total}
        </span>
        {acting && !isMe ? <Countdown lang={lang} timer={timer} now={props.now} /> : null}
      </div>
      <div class="row">
        {hidden ? (
          <span class="pieces small concealed" data-testid={`concealed-${seat}`}>
            {Array.from({ length: info.concealed_count ?? 0 }, () => (
              <span class="pc">
                <BackView variant={variant} />
              </span>
            ))}
          </span>
        ) : null}
        {info.hand && (!isMe || !props.children) ? (
          <Pieces variant={variant} pieces={parsePieces(variant, info.hand).sort((a, b) => pieceKey(a) - pieceKey(b))} small />
        ) : null}
        <Melds variant={variant} melds={info.melds ?? []} small={!isMe} />
        {(info.takeoffs ?? []).map((t: string) => (
          <span class="meld takeoff" title={tr(lang, "table.takeoffs")}>
            <Pieces variant={variant} pieces={parseCards(t)} small={!isMe} />
          </span>
        ))}
        {flowers.length ? (
          <span class="flowers" title={tr(lang, cards ? "table.jokers" : "table.flowers")}>
            <Pieces variant={variant} pieces={flowers} small />
          </span>
        ) : null}
      </div>
      {props.children}
      <div class="discards" data-testid={`discards-${seat}`}>
        <Pieces variant={variant} pieces={discards} small />
      </div>
    </section>
  );
}

export function actionLabel(lang: Lang, action: string): string {
  const verb = actionVerb(action);
  return tr(lang, `act.${verb}`);
}

function MyHand(props: { lang: Lang; state: ClientState; send: Send; now: number }) {
  const { lang, state, send } = props;
  const game = state.game!;
  const view = game.state;
  const variant = view.variant ?? "";
  const me = state.seat!;
  const info: Json = view.players?.[me] ?? {};
  const [tingMode, setTingMode] = useState(false);
  const legal = game.legal ?? [];
  const legalSet = new Set(legal);
  let pieces = parsePieces(variant, info.hand).sort((a, b) => pieceKey(a) - pieceKey(b));
  const drawn: Piece | null = view.drawn ?? null;
  if (drawn) pieces = withoutOne(pieces, drawn);
  const canTing = legal.some((a) => actionVerb(a) === "tingd");
  const prefix = tingMode && canTing ? "ting" : "d";
  const act = (action: string) => {
    setTingMode(false);
    send({ type: "act", action, turn: game.turn });
  };
  const buttons = legal.filter((a) => {
    const v = actionVerb(a);
    return v !== "d" && v !== "tingd";
  });
  const canDiscard = legal.some((a) => actionVerb(a) === "d");
  const timer = game.timers.find((t) => t.seat === me);
  const pieceButton = (p: Piece, extra: string) => {
    const action = prefix + p;
    const ok = legalSet.has(action);
    return (
      <button
        class={`hand-piece${ok ? " playable" : ""}${extra}`}
        data-testid="hand-tile"
        data-piece={p}
        data-action={ok ? action : undefined}
        disabled={!ok}
        onClick={() => ok && act(action)}
      >
        <PieceView variant={variant} piece={p} />
      </button>
    );
  };
  return (
    <div class="my-hand">
      <div class="hand-row" data-testid="my-hand">
        {pieces.map((p) => pieceButton(p, ""))}
        {drawn ? <span class="gap" /> : null}
        {drawn ? pieceButton(drawn, " drawn") : null}
      </div>
      <div class="actions" data-testid="actions">
        {legal.length ? <Countdown lang={lang} timer={timer} now={props.now} testid="my-countdown" /> : null}
        {canDiscard && !tingMode ? (
          <span class="hint">{tr(lang, isCardVariant(variant) ? "act.discard.cards" : "act.discard")}</span>
        ) : null}
        {tingMode ? <span class="hint">{tr(lang, "act.tingmode")}</span> : null}
        {canTing ? (
          <button class={tingMode ? "act on" : "act"} data-testid="action-tingmode" onClick={() => setTingMode(!tingMode)}>
            {tr(lang, "act.tingd")}
          </button>
        ) : null}
        {buttons.map((a) => {
          const p = actionPiece(a);
          return (
            <button class={`act act-${actionVerb(a)}`} data-testid={`action-${a}`} onClick={() => act(a)}>
              {actionLabel(lang, a)}
              {p ? (
                <span class="pc inline">
                  <PieceView variant={variant} piece={p} />
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function CenterInfo(props: { lang: Lang; state: ClientState }) {
  const { lang, state } = props;
  const game = state.game!;
  const view = game.state;
  const variant = view.variant ?? state.room?.variant ?? "";
  const claim: Piece | null = view.claim_tile ?? view.claim_card ?? null;
  const current: number | undefined = view.current;
  const toAct: number[] = game.to_act ?? [];
  const mine = state.seat !== null && toAct.includes(state.seat);
  const whose =
    toAct.length === 1 && view.phase !== "claim"
      ? mine
        ? tr(lang, "table.yourturn")
        : tr(lang, "table.turn", { who: seatName(lang, state.room, toAct[0], state.seat) })
      : "";
  const left = view.wall_left ?? view.stock_left;
  // a timeout is news for the next few moves only
  const [kind, tSeat, tTurn] = (state.notice ?? "").split(":");
  const timedOut = kind === "timeout" && game.turn <= Number(tTurn) + 3 ? { seat: Number(tSeat) } : null;
  return (
    <section class="center" data-testid="center">
      <div class="meta">
        {game.hand !== null ? <span>{tr(lang, "table.hand", { n: (game.hand ?? 0) + 1 })}</span> : null}
        {left !== undefined ? (
          <span data-testid="wall-left">{tr(lang, isCardVariant(variant) ? "table.stock" : "table.wall", { n: left })}</span>
        ) : null}
      </div>
      {view.indicator ? (
        <div class="indicator" data-testid="indicator">
          <span>{tr(lang, "table.indicator")}</span>
          <span class="pc">
            <PieceView variant={variant} piece={view.indicator} />
          </span>
          <span class="ranks">{tr(lang, "table.jianpai", { r: view.jian_pai ?? "" })}</span>
        </div>
      ) : null}
      {claim ? (
        <div class="claim" data-testid="claim">
          <span>
            {current !== undefined ? seatName(lang, state.room, current, state.seat) : ""} {tr(lang, "table.claim")}
          </span>
          <span class="pc big">
            <PieceView variant={variant} piece={claim} />
          </span>
          {mine ? <strong>{tr(lang, "table.yourclaim")}</strong> : null}
        </div>
      ) : null}
      {whose ? <div class={mine ? "whose mine" : "whose"} data-testid="whose-turn">{whose}</div> : null}
      {timedOut ? (
        <div class="notice" data-testid="timeout-notice">
          {tr(lang, "table.timeout", { who: seatName(lang, state.room, timedOut.seat, state.seat) })}
        </div>
      ) : null}
    </section>
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
}) {
  const { lang, variant } = props;
  const parts = settlementParts(props.events);
  const name = (s: number) => seatName(lang, props.room, s, props.me);
  const players: Json[] = props.state?.players ?? [];
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
              <Pieces variant={variant} pieces={parsePieces(variant, p.hand).sort((a, b) => pieceKey(a) - pieceKey(b))} small />
              <Melds variant={variant} melds={p.melds ?? []} small />
              {winPiece ? (
                <span class="win-piece">
                  <Pieces variant={variant} pieces={[winPiece]} small />
                </span>
              ) : null}
            </div>
          </div>
        );
      })}
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
      <h4>{tr(lang, "settle.payments")}</h4>
      {parts.payments.length ? (
        <ul class="payments">
          {parts.payments.map((p) => (
            <li>
              {tr(lang, "settle.pays", { a: name(p.payer), b: name(p.payee), v: p.amount })}{" "}
              <span class="reason">{itemName(props.items, variant, p.reason, undefined, lang)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{tr(lang, "settle.nopay")}</p>
      )}
      <table class="net">
        <tbody>
          <tr>
            {props.net.map((_, s) => (
              <th>{name(s)}</th>
            ))}
          </tr>
          <tr>
            {props.net.map((v) => (
              <td class={v >= 0 ? "plus" : "minus"}>{v > 0 ? `+${v}` : v}</td>
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
            <th>{tr(lang, "ledger.hand")}</th>
            <th>{tr(lang, "ledger.winner")}</th>
            {Array.from({ length: n }, (_, s) => (
              <th>{name(s)}</th>
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

function WaitingRoom(props: { lang: Lang; state: ClientState; send: Send }) {
  const { lang, state, send } = props;
  const room = state.room!;
  const [name, setName] = useState("");
  return (
    <section class="waiting card-panel" data-testid="waiting">
      <h2>{tr(lang, "room.waiting")}</h2>
      <p>
        {tr(lang, "room.share")}
        <strong class="code" data-testid="room-code-big">{room.code}</strong>
      </p>
      {state.seat === null ? (
        <label>
          {tr(lang, "lobby.name")}
          <input data-testid="seat-name" maxLength={24} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
      ) : null}
      <ul class="seat-list">
        {room.seats.map((s) => (
          <li data-testid={`waiting-seat-${s.seat}`}>
            <span>{s.seat + 1}.</span>{" "}
            {s.kind === "bot" ? (
              `${tr(lang, "room.bot")} (${s.level})`
            ) : s.taken ? (
              seatName(lang, room, s.seat, state.seat)
            ) : state.seat === null ? (
              <button class="primary" data-testid={`take-${s.seat}`} onClick={() => send({ type: "take_seat", seat: s.seat, name: name.trim() })}>
                {tr(lang, "room.take")}
              </button>
            ) : (
              tr(lang, "room.empty")
            )}
          </li>
        ))}
      </ul>
      {state.host ? (
        <button class="primary" data-testid="start" onClick={() => send({ type: "start" })}>
          {tr(lang, "room.start")}
        </button>
      ) : null}
    </section>
  );
}

export function Table(props: { lang: Lang; state: ClientState; items: ItemNames; send: Send; rejoin: () => void }) {
  const { lang, state, send, items } = props;
  const room = state.room;
  const now = useNow(!!state.game && state.game.timers.length > 0);
  if (!room) return <p class="muted">{tr(lang, "conn.connecting")}</p>;
  const variant = room.variant;
  const head = (
    <div class="room-head">
      <span>
        {tr(lang, "room.code")} <strong data-testid="room-code">{room.code}</strong>
      </span>
      <span>{tr(lang, `variant.${variant}`)}</span>
      {state.seat === null ? <span class="tag" data-testid="spectating">{tr(lang, "room.spectating")}</span> : null}
      {state.error ? (
        <span class="error" data-testid="error">
          {tr(lang, "error", { m: state.error })}
        </span>
      ) : null}
    </div>
  );
  if (room.status === "waiting" || room.status === "starting" || !state.game) {
    return (
      <div class="room">
        {head}
        {room.status === "waiting" ? <WaitingRoom lang={lang} state={state} send={send} /> : <p>{tr(lang, "table.wait")}</p>}
      </div>
    );
  }
  const game = state.game;
  const me = state.seat ?? 0;
  const pos = sides(room.n_seats, me);
  const settle = state.settlement;
  const seated = state.seat !== null;
  return (
    <div class="room">
      {head}
      <div class={`board n${room.n_seats}`} data-testid="board">
        {(["top", "left", "right"] as const).map((side) =>
          pos[side] === null ? <div class={`player side-${side} empty`} /> : <PlayerArea lang={lang} state={state} seat={pos[side]!} side={side} now={now} />,
        )}
        <CenterInfo lang={lang} state={state} />
        <PlayerArea lang={lang} state={state} seat={me} side="bottom" now={now}>
          {seated && game.state.players?.[me]?.hand !== undefined && !settle ? <MyHand lang={lang} state={state} send={send} now={now} /> : null}
        </PlayerArea>
      </div>
      {settle ? (
        <section class="settlement card-panel" data-testid="settlement">
          <h3>
            {tr(lang, "settle.title")} · {tr(lang, "table.hand", { n: settle.hand + 1 })}
          </h3>
          <SettlementView
            lang={lang}
            room={room}
            me={state.seat}
            variant={variant}
            winners={settle.winners}
            exhausted={settle.exhausted}
            net={settle.net}
            events={settle.events}
            state={settle.state}
            items={items}
          />
          {state.matchEnd ? (
            <p class="match-over" data-testid="match-over">
              <strong>{tr(lang, "table.matchover")}</strong>{" "}
              <a href={state.matchEnd.record} download>
                {tr(lang, "table.record")}
              </a>{" "}
              <a href={`#/replay/${state.matchEnd.game_id}`} data-testid="replay-link">
                {tr(lang, "table.replay")}
              </a>
            </p>
          ) : (
            <p class="muted">{tr(lang, "table.nexthand")}</p>
          )}
        </section>
      ) : null}
      {!settle && state.lastSettlement ? (
        <details class="settlement card-panel" data-testid="last-settlement">
          <summary>
            {tr(lang, "settle.last")} · {tr(lang, "table.hand", { n: state.lastSettlement.hand + 1 })}
          </summary>
          <SettlementView
            lang={lang}
            room={room}
            me={state.seat}
            variant={variant}
            winners={state.lastSettlement.winners}
            exhausted={state.lastSettlement.exhausted}
            net={state.lastSettlement.net}
            events={state.lastSettlement.events}
            state={state.lastSettlement.state}
            items={items}
          />
        </details>
      ) : null}
      <Ledger lang={lang} room={room} me={state.seat} match={state.match} />
      {state.left ? (
        <div class="banner" data-testid="left">
          {tr(lang, "room.left")}{" "}
          <button class="primary" data-testid="rejoin" onClick={props.rejoin}>
            {tr(lang, "room.rejoin")}
          </button>
        </div>
      ) : null}
      {seated && room.status === "playing" ? (
        <button class="link" data-testid="leave" onClick={() => send({ type: "leave" })}>
          {tr(lang, "room.leave")}
        </button>
      ) : null}
    </div>
  );
}
