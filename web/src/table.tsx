// The table: four (or three) seats around a centre, the player's hand, the settlement dialog,
// callouts, sounds and an aria-live account of what happens.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { BackView, Wilds, wildsOf } from "./faces";
import { bracket, errorText, joinList, tr, WINDS_EN, WINDS_ZH, type Lang } from "./i18n";
import { callouts, cueFor, describeEvent, diceOf, isLeopard, lastDiscard, type Callout } from "./events";
import { FairPanel } from "./fairpanel";
import { MyHand } from "./hand";
import { botLevelName, seatName, signed, type ItemNames } from "./names";
import { isCardVariant, parseCards, parsePieces, sortPieces, type Piece } from "./notation";
import { Melds, PcButton, Pieces } from "./pieces";
import { autoAction, BOT_PACES, type Prefs } from "./prefs";
import { Ledger, SettlementDialog, SettlementView } from "./settlement";
import { play } from "./sound";
import { sides, type ClientState, type MatchSoFar, type RoomInfo, type TimerInfo } from "./state";
import { handView, isQinger, type PlayerView } from "./view";
import type { ClientMessage } from "./schema/client-messages";
import { RunningScore, Waits } from "./waits";
import { MatchStats } from "./review/mine";
import { rt } from "./review/text";

type Send = (msg: ClientMessage) => void;

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
    <span class={base > 0 ? "countdown" : "countdown bank"} data-testid={props.testid} role="timer">
      <span class="bar" style={{ width: `${Math.round(frac * 100)}%` }} />
      <span class="label">{text}</span>
    </span>
  );
}

function seatWind(lang: Lang, seat: number, dealer: number, n: number): string {
  const k = (seat - dealer + n) % n;
  return lang === "en" ? WINDS_EN[k] : WINDS_ZH[k];
}

/** Scores on the table: the match totals plus what this hand has paid so far (kong money). */
export function liveTotals(state: ClientState): number[] {
  const totals: number[] = state.match?.totals ?? [];
  const n = state.room?.n_seats ?? totals.length;
  const inHand: number[] = !state.settlement ? (handView(state.game?.state)?.net ?? []) : [];
  return Array.from({ length: n }, (_, s) => (totals[s] ?? 0) + (inHand[s] ?? 0));
}

export function PlayerArea(props: {
  lang: Lang;
  state: ClientState;
  seat: number;
  side: string;
  now: number;
  callout?: Callout[];
  children?: ComponentChildren;
}) {
  const { lang, state, seat, side } = props;
  const game = state.game!;
  const view = handView(game.state);
  const variant = view?.variant ?? state.room?.variant ?? "";
  const info: PlayerView | undefined = view?.players[seat];
  const room = state.room;
  const seatInfo = room?.seats[seat];
  const n = room?.n_seats ?? view?.players.length ?? 4;
  const dealer = view?.dealer ?? 0;
  const isMe = seat === state.seat;
  const acting = (game.to_act ?? []).includes(seat);
  const total = liveTotals(state)[seat] ?? 0;
  const discards = parsePieces(variant, info?.discards);
  const flowers = parsePieces(variant, info?.flowers);
  const timer = game.timers.find((t) => t.seat === seat);
  const cards = isCardVariant(variant);
  const hidden = !info?.hand && !isMe;
  // a mahjong view names the last discard; Qing'er's leaves it to the events
  const lv = view && "last_discard" in view ? view.last_discard : undefined;
  const last = lv ? { seat: lv.seat, piece: lv.tile } : lastDiscard(state.handEvents);
  const mark = last && last.seat === seat && discards[discards.length - 1] === last.piece ? discards.length - 1 : undefined;
  const name = (s: number) => seatName(lang, room, s, state.seat);
  return (
    <section
      class={`player side-${side}${acting ? " acting" : ""}${isMe ? " me" : ""}`}
      data-testid={`seat-${seat}`}
      aria-label={name(seat)}
    >
      <div class="who">
        <span class="wind" title={tr(lang, "table.seatwind")}>{seatWind(lang, seat, dealer, n)}</span>
        {seat === dealer ? <span class="dealer">{tr(lang, "table.dealer")}</span> : null}
        <span class="name">{name(seat)}</span>
        {seatInfo?.kind === "bot" ? <span class="tag">{botLevelName(lang, seatInfo.level)}</span> : null}
        {seatInfo?.kind === "person" && seatInfo.bot_playing ? <span class="tag">{tr(lang, "room.botplaying")}</span> : null}
        {seatInfo?.kind === "person" && !seatInfo.connected && !seatInfo.bot_playing ? (
          <span class="tag">{tr(lang, "room.away")}</span>
        ) : null}
        {info && "ready" in info && info.ready ? <span class="tag ready">{tr(lang, "table.ready")}</span> : null}
        {info && "knocked" in info && info.knocked ? <span class="tag ready" data-testid={`knocked-${seat}`}>{tr(lang, "table.knocked")}</span> : null}
        {info && "plays" in info && !info.plays ? <span class="tag">{tr(lang, "table.sitsout")}</span> : null}
        <span class={total >= 0 ? "score plus" : "score minus"} data-testid={`total-${seat}`}>
          {signed(total)}
        </span>
        {acting && !isMe ? <Countdown lang={lang} timer={timer} now={props.now} /> : null}
      </div>
      {(props.callout ?? []).map((c) => (
        <span class={`callout ${c.kind}`} data-testid={`callout-${seat}`}>
          {c.text}
        </span>
      ))}
      <div class="row">
        {hidden ? (
          <span class="pieces small concealed" data-testid={`concealed-${seat}`} aria-label={tr(lang, "table.concealed", { n: info?.concealed_count ?? 0 })}>
            {Array.from({ length: info?.concealed_count ?? 0 }, () => (
              <span class="pc">
                <BackView variant={variant} />
              </span>
            ))}
          </span>
        ) : null}
        {info?.hand && (!isMe || !props.children) ? (
          <Pieces variant={variant} pieces={sortPieces(variant, parsePieces(variant, info.hand))} small lang={lang} buttons />
        ) : null}
        <Melds variant={variant} melds={info?.melds ?? []} small={!isMe} lang={lang} owner={seat} n={n} seatLabel={name} buttons />
        {(info && "takeoffs" in info ? info.takeoffs : []).map((t) => (
          <span class="meld takeoff" title={tr(lang, "table.takeoffs")}>
            <Pieces variant={variant} pieces={parseCards(t)} small={!isMe} lang={lang} buttons />
          </span>
        ))}
        {flowers.length ? (
          <span class="flowers" title={tr(lang, cards ? "table.jokers" : "table.flowers")}>
            <Pieces variant={variant} pieces={flowers} small lang={lang} buttons />
          </span>
        ) : null}
      </div>
      {props.children}
      <div class="discards" data-testid={`discards-${seat}`}>
        <Pieces variant={variant} pieces={discards} small mark={mark} lang={lang} label={tr(lang, "table.discardsof", { who: name(seat) })} buttons />
      </div>
    </section>
  );
}

/** 连庄: how many hands in a row the current dealer has kept the deal. */
export function dealerStreak(match: MatchSoFar | null, dealer: number): number {
  const hands = match?.hands ?? [];
  let k = 0;
  for (let i = hands.length - 1; i >= 0 && hands[i].dealer === dealer; i--) k++;
  return k;
}

export function CenterInfo(props: { lang: Lang; state: ClientState }) {
  const { lang, state } = props;
  const game = state.game!;
  const view = handView(game.state);
  const variant = view?.variant ?? state.room?.variant ?? "";
  const qinger = view && isQinger(view) ? view : null;
  const mahjong = view && !isQinger(view) ? view : null;
  const claim: Piece | null = qinger?.claim_card ?? mahjong?.claim_tile ?? null;
  const current: number | undefined = view?.current;
  const toAct: number[] = game.to_act ?? [];
  const mine = state.seat !== null && toAct.includes(state.seat);
  const name = (s: number) => seatName(lang, state.room, s, state.seat);
  const whose =
    toAct.length === 1 && view?.phase !== "claim"
      ? mine
        ? tr(lang, "table.yourturn")
        : tr(lang, "table.turn", { who: name(toAct[0]) })
      : "";
  const left = mahjong?.wall_left ?? qinger?.stock_left;
  const dice = diceOf(state.handEvents);
  const cards = isCardVariant(variant);
  // the first hand is East round's: the match state comes with the first settlement
  const roundWind: number | undefined = state.match?.round_wind ?? (game.hand === 0 ? 0 : undefined);
  const streak = view ? dealerStreak(state.match, view.dealer) : 0;
  const rawStakes = state.room?.options?.stake_form;
  const stakes = typeof rawStakes === "string" ? rawStakes : null;
  const knocked = (qinger?.players ?? []).flatMap((p, s) => (p.knocked ? [s] : []));
  const multiplier = mahjong && "draw_multiplier" in mahjong ? (mahjong.draw_multiplier ?? 1) : 1;
  // a timeout is news for the next few moves only
  const [kind, tSeat, tTurn] = (state.notice ?? "").split(":");
  const timedOut = kind === "timeout" && game.turn <= Number(tTurn) + 3 ? { seat: Number(tSeat) } : null;
  return (
    <section class="center" data-testid="center" aria-label={tr(lang, "table.centre")}>
      <div class="meta">
        {game.hand !== null ? <span>{tr(lang, "table.hand", { n: (game.hand ?? 0) + 1 })}</span> : null}
        {!cards && roundWind !== undefined ? (
          <span data-testid="round-wind">{tr(lang, "table.round", { w: lang === "en" ? WINDS_EN[roundWind % 4] : WINDS_ZH[roundWind % 4] })}</span>
        ) : null}
        {view ? (
          <span data-testid="dealer-info">
            {tr(lang, "table.dealeris", { who: name(view.dealer) })}
            {streak > 0 ? ` · ${tr(lang, "table.streak", { n: streak })}` : ""}
          </span>
        ) : null}
        {left !== undefined ? (
          <span data-testid="wall-left">{tr(lang, cards ? "table.stock" : "table.wall", { n: left })}</span>
        ) : null}
        {multiplier > 1 ? (
          <span data-testid="draw-multiplier">{tr(lang, "table.huangzhuang", { x: multiplier })}</span>
        ) : null}
      </div>
      {dice ? (
        <div class="dice" data-testid="dice" aria-label={tr(lang, "table.dice", { d: dice.join("+") })}>
          {dice.map((d) => (
            <span class="die">{"⚀⚁⚂⚃⚄⚅"[d - 1] ?? d}</span>
          ))}
          {isLeopard(dice) ? <span class="tag ready" data-testid="leopard">{tr(lang, "table.leopard")}</span> : null}
        </div>
      ) : null}
      {mahjong?.indicator && mahjong.wild_kinds ? (
        <div class="indicator" data-testid="hun-indicator" title={tr(lang, "table.wilds.title")}>
          <span>{tr(lang, "table.hunindicator")}</span>
          <Wilds.Provider value={new Set()}>
            <PcButton variant={variant} piece={mahjong.indicator} lang={lang} />
          </Wilds.Provider>
          <span>{tr(lang, "table.wilds")}</span>
          {mahjong.wild_kinds.map((k) => (
            <PcButton variant={variant} piece={k} lang={lang} testid="wild-kind" />
          ))}
        </div>
      ) : qinger?.indicator ? (
        <div class="indicator" data-testid="indicator">
          <span>{tr(lang, "table.indicator")}</span>
          <PcButton variant={variant} piece={qinger.indicator} lang={lang} />
          <span class="ranks">{tr(lang, "table.jianpai", { r: qinger.jian_pai ?? "" })}</span>
        </div>
      ) : null}
      {cards && knocked.length ? (
        <div class="knocks" data-testid="knocks">
          {tr(lang, "table.knockedby", { who: joinList(lang, knocked.map(name)) })}
          {stakes ? ` · ${tr(lang, "table.stakes", { s: stakes })}` : ""}
          <ul class="pair-stakes" data-testid="pair-stakes">
            {(qinger?.stakes ?? []).map((p) => (
              <li data-testid={`pair-stake-${p.seats[0]}-${p.seats[1]}`}>
                {tr(lang, "table.pairstake", { a: name(p.seats[0]), b: name(p.seats[1]), n: p.stake })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {claim ? (
        <div class="claim" data-testid="claim">
          <span>
            {current !== undefined ? name(current) : ""} {tr(lang, "table.claim")}
          </span>
          <PcButton variant={variant} piece={claim} lang={lang} class="big" />
          {mine ? <strong>{tr(lang, "table.yourclaim")}</strong> : null}
        </div>
      ) : null}
      {whose ? <div class={mine ? "whose mine" : "whose"} data-testid="whose-turn">{whose}</div> : null}
      {timedOut ? (
        <div class="notice" data-testid="timeout-notice">
          {tr(lang, "table.timeout", { who: name(timedOut.seat) })}
        </div>
      ) : null}
    </section>
  );
}

function WaitingRoom(props: { lang: Lang; state: ClientState; send: Send }) {
  const { lang, state, send } = props;
  const room = state.room!;
  const [name, setName] = useState("");
  const [copied, setCopied] = useState(false);
  const link = `${location.origin}${location.pathname}#/room/${room.code}`;
  return (
    <section class="waiting card-panel" data-testid="waiting">
      <h2>{tr(lang, "room.waiting")}</h2>
      <p>
        {tr(lang, "room.share")}
        <strong class="code" data-testid="room-code-big">{room.code}</strong>
      </p>
      <p class="invite">
        <label>
          {tr(lang, "room.invite")}
          <input readOnly value={link} data-testid="invite-link" onFocus={(e) => (e.target as HTMLInputElement).select()} />
        </label>
        <button
          class="secondary"
          data-testid="copy-invite"
          onClick={() => {
            // not every browser shares (desktop Firefox): the clipboard then
            if (typeof navigator.share === "function") void navigator.share({ title: tr(lang, "app.title"), url: link }).catch(() => undefined);
            else void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => undefined);
          }}
        >
          {tr(lang, copied ? "room.copied" : "room.copy")}
        </button>
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
              tr(lang, "room.bot") + bracket(lang, botLevelName(lang, s.level))
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

function AutoOptions(props: { lang: Lang; prefs: Prefs; setPrefs: (p: Prefs) => void; cards: boolean }) {
  const { lang, prefs } = props;
  const box = (key: keyof Prefs, label: string) => (
    <label class="inline">
      <input type="checkbox" data-testid={`pref-${key}`} checked={!!prefs[key]} onChange={(e) => props.setPrefs({ ...prefs, [key]: (e.target as HTMLInputElement).checked })} />
      {tr(lang, label)}
    </label>
  );
  return (
    <details class="auto-options" data-testid="auto-options">
      <summary>{tr(lang, "auto.title")}</summary>
      {box("autoWin", "auto.win")}
      {box("noClaims", props.cards ? "auto.noclaims.cards" : "auto.noclaims")}
      {box("tsumogiri", "auto.tsumogiri")}
      {props.cards ? null : box("autoAfterReady", "auto.afterready")}
      <label class="inline" title={tr(lang, "pace.note")}>
        {tr(lang, "pace.label")}
        <select
          data-testid="pref-botPace"
          value={String(prefs.botPace)}
          onChange={(e) => {
            const raw = (e.target as HTMLSelectElement).value;
            props.setPrefs({ ...prefs, botPace: BOT_PACES.find((c) => String(c.seconds) === raw)?.seconds ?? null });
          }}
        >
          {BOT_PACES.map((c) => (
            <option value={String(c.seconds)}>{tr(lang, c.key)}</option>
          ))}
        </select>
      </label>
      <p class="muted small">{tr(lang, "auto.keys")}</p>
    </details>
  );
}

/** One <style> rule that outlines every visible copy of the chosen piece. */
function Highlight(props: { piece: Piece | null }) {
  if (!props.piece || !/^[0-9A-Za-z]{2}$/.test(props.piece)) return null;
  return <style>{`.board .pc[data-p="${props.piece}"] svg.piece, .board .hand-piece[data-piece="${props.piece}"] svg.piece { outline: 3px solid #f5c542; outline-offset: -1px; border-radius: 4px; }`}</style>;
}

export function Table(props: {
  lang: Lang;
  state: ClientState;
  items: ItemNames;
  send: Send;
  rejoin: () => void;
  prefs: Prefs;
  setPrefs: (p: Prefs) => void;
  again: (room: RoomInfo) => void;
  setLang?: (lang: Lang) => void;
}) {
  const { lang, state, send, items, prefs } = props;
  const room = state.room;
  const now = useNow(!!state.game && state.game.timers.length > 0);
  const [shown, setShown] = useState<Record<number, Callout[]>>({});
  const [spoken, setSpoken] = useState<string[]>([]);
  const [dialog, setDialog] = useState<"open" | "closed">("closed");
  const [ready, setReady] = useState(false);
  const [highlight, setHighlight] = useState<Piece | null>(null);
  const seen = useRef(0);
  const settleSeen = useRef<number | null>(null);
  const variant = room?.variant ?? "";
  const name = (s: number) => seatName(lang, room, s, state.seat);

  // new events: callouts on the seats, a sound, a line for the live region
  useEffect(() => {
    const events = state.handEvents;
    if (events.length < seen.current) seen.current = 0;
    const fresh = events.slice(seen.current);
    seen.current = events.length;
    if (!fresh.length) return;
    const over = !!state.settlement;
    const calls = callouts(lang, fresh, over);
    if (calls.length) {
      const next: Record<number, Callout[]> = {};
      for (const c of calls) (next[c.seat] ??= []).push(c);
      setShown(next);
      setTimeout(() => setShown({}), 1600);
    }
    const cue = cueFor(fresh);
    if (cue) play(cue, prefs.muted);
    const lines = fresh.map((e) => describeEvent(lang, variant, e, name)).filter((x): x is string => !!x);
    if (lines.length) setSpoken((old) => old.concat(lines).slice(-6));
  }, [state.handEvents]);

  // the settlement opens by itself once per hand
  useEffect(() => {
    const s = state.settlement;
    if (s && settleSeen.current !== s.hand) {
      settleSeen.current = s.hand;
      setDialog("open");
      setReady(false);
    }
    if (!s) setDialog("closed");
  }, [state.settlement]);

  // the player's turn: a sound, the title and a vibration for a player in another tab
  const mine = !!state.game && state.seat !== null && (state.game.legal?.length ?? 0) > 0 && !state.settlement;
  useEffect(() => {
    if (!mine) {
      document.title = tr(lang, "app.doctitle");
      return;
    }
    play("turn", prefs.muted);
    if (document.hidden) {
      document.title = `● ${tr(lang, "table.yourturn")} · ${tr(lang, "app.doctitle")}`;
      if (typeof navigator.vibrate === "function") navigator.vibrate(120);
    }
  }, [mine, state.game?.turn]);
  useEffect(() => {
    const onVis = () => {
      if (!document.hidden) document.title = tr(lang, "app.doctitle");
    };
    addEventListener("visibilitychange", onVis);
    return () => removeEventListener("visibilitychange", onVis);
  }, [lang]);

  // the auto options answer for the player (after a moment, so that the move can be seen)
  useEffect(() => {
    const g = state.game;
    if (!g || state.seat === null || state.settlement || !g.legal?.length) return;
    const view = handView(g.state);
    const me = view?.players[state.seat];
    const a = autoAction(prefs, g.legal, view?.drawn ?? null, !!me && "ready" in me && !!me.ready);
    if (!a) return;
    const id = setTimeout(() => send({ type: "act", action: a, turn: g.turn }), 350);
    return () => clearTimeout(id);
  }, [state.game?.turn, state.game?.legal?.join(), prefs]);

  if (!room) {
    return state.error ? (
      <div class="card-panel" data-testid="room-error" role="alert">
        <p class="error">{tr(lang, "error", { m: errorText(lang, state.errorCode, state.errorMessage) })}</p>
        <a href="#/">{tr(lang, "nav.lobby")}</a>
      </div>
    ) : (
      <p class="muted">{tr(lang, "conn.connecting")}</p>
    );
  }
  const head = (
    <div class="room-head">
      <span>
        {tr(lang, "room.code")} <strong data-testid="room-code">{room.code}</strong>
      </span>
      <span>{tr(lang, `variant.${variant}`)}</span>
      <a href={`/rules/${variant}`} target="_blank" rel="noopener" data-testid="rule-book">
        {tr(lang, "lobby.rulebook")}
      </a>
      {state.seat === null ? <span class="tag" data-testid="spectating">{tr(lang, "room.spectating")}</span> : null}
      {state.error ? (
        <span class="error" data-testid="error" role="alert">
          {tr(lang, "error", { m: errorText(lang, state.errorCode, state.errorMessage) })}
        </span>
      ) : null}
    </div>
  );
  const live = (
    <div class="sr-only" aria-live="polite" data-testid="live">
      {spoken.map((l) => (
        <p>{l}</p>
      ))}
    </div>
  );
  const finishedLinks = room.game_id ? (
    <p class="match-over" data-testid="match-over">
      <strong>{tr(lang, "table.matchover")}</strong>{" "}
      <a href={state.matchEnd?.record ?? `/api/games/${room.game_id}/record`} download>
        {tr(lang, "table.record")}
      </a>{" "}
      <a href={`#/replay/${room.game_id}`} data-testid="replay-link">
        {tr(lang, "table.replay")}
      </a>{" "}
      <a href={`#/review/${room.game_id}/${state.seat ?? ""}`} data-testid="review-link">
        {rt(lang, "review.link")}
      </a>{" "}
      <button class="primary" data-testid="again" onClick={() => props.again(room)}>
        {tr(lang, "table.again")}
      </button>
      {state.seat !== null ? <MatchStats lang={lang} gameId={room.game_id} /> : null}
    </p>
  ) : null;
  // a visitor of a finished room: its record, its replay and its ledger
  const visitor = room.status === "finished" && !state.settlement && !handView(state.game?.state);
  if (room.status === "waiting" || room.status === "starting" || !state.game || visitor) {
    return (
      <div class="room">
        {head}
        {room.status === "waiting" ? (
          <WaitingRoom lang={lang} state={state} send={send} />
        ) : room.status === "finished" ? (
          <>
            {finishedLinks}
            <Ledger lang={lang} room={room} me={state.seat} match={state.match} />
          </>
        ) : (
          <p>{tr(lang, "table.wait")}</p>
        )}
        {live}
        <FairPanel lang={lang} state={state} />
      </div>
    );
  }
  const game = state.game;
  const me = state.seat ?? 0;
  const pos = sides(room.n_seats, me);
  const settle = state.settlement;
  const seated = state.seat !== null;
  const view = handView(game.state);
  const mineInfo: PlayerView | undefined = view?.players[me];
  const over = room.status === "finished" || !!state.matchEnd;
  const nextAt = settle && !over && typeof settle.next_hand_ms === "number" ? settle.received_at + settle.next_hand_ms : null;
  const shownSettlement = settle ?? (dialog === "open" ? state.lastSettlement : null);
  const settlementBody = (s: NonNullable<ClientState["settlement"]>) => (
    <>
      <SettlementView
        lang={lang}
        room={room}
        me={state.seat}
        variant={variant}
        winners={s.winners}
        exhausted={s.exhausted}
        net={s.net}
        events={s.events}
        state={s.state}
        items={items}
        explanation={s.explanation}
      />
      <Ledger lang={lang} room={room} me={state.seat} match={state.match} />
    </>
  );
  return (
    <Wilds.Provider value={wildsOf(view)}>
    <div class={`room${prefs.large ? " large" : ""}`}>
      {head}
      <Highlight piece={highlight} />
      <div
        class={`board n${room.n_seats}`}
        data-testid="board"
        onClick={(e) => {
          // a tap on a tile or card lying on the table (a river, a meld, the centre) marks
          // every visible copy; a second tap on one clears the marks (the hand's own pieces
          // mark theirs when chosen)
          const el = (e.target as Element).closest?.(".pc[data-p]") as HTMLElement | null;
          if (!el || el.closest(".my-hand")) return;
          const p = el.dataset.p ?? null;
          setHighlight((old) => (old === p ? null : p));
        }}
      >
        {(["top", "left", "right"] as const).map((side) =>
          pos[side] === null ? (
            <div class={`player side-${side} empty`} />
          ) : (
            <PlayerArea lang={lang} state={state} seat={pos[side]!} side={side} now={now} callout={shown[pos[side]!]} />
          ),
        )}
        <CenterInfo lang={lang} state={state} />
        <PlayerArea lang={lang} state={state} seat={me} side="bottom" now={now} callout={shown[me]}>
          {seated && view && mineInfo?.hand !== undefined && !settle ? (
            <>
              <MyHand
                lang={lang}
                variant={variant}
                hand={parsePieces(variant, mineInfo.hand)}
                drawn={view.drawn ?? null}
                legal={game.legal ?? []}
                turn={game.turn}
                send={send}
                aside={"dropping" in view ? (view.dropping ?? null) : null}
                readyDiscards={"ready_discards" in view ? (view.ready_discards ?? {}) : {}}
                running={<RunningScore lang={lang} view={view} />}
                onHighlight={setHighlight}
                countdown={game.legal?.length ? <Countdown lang={lang} timer={game.timers.find((t) => t.seat === me)} now={now} testid="my-countdown" /> : null}
              />
              <Waits lang={lang} variant={variant} view={view} />
            </>
          ) : null}
        </PlayerArea>
      </div>
      {live}
      <div class="table-tools">
        {state.lastSettlement || settle ? (
          <button class="secondary" data-testid="open-settlement" onClick={() => setDialog("open")}>
            {tr(lang, settle ? "settle.title" : "settle.last")}
          </button>
        ) : null}
        {seated ? <AutoOptions lang={lang} prefs={prefs} setPrefs={props.setPrefs} cards={isCardVariant(variant)} /> : null}
        <FairPanel lang={lang} state={state} />
      </div>
      {dialog === "open" && shownSettlement ? (
        <SettlementDialog
          lang={lang}
          title={`${tr(lang, settle ? "settle.title" : "settle.last")} · ${tr(lang, "table.hand", { n: shownSettlement.hand + 1 })}`}
          onClose={() => setDialog("closed")}
          onLang={props.setLang ? () => props.setLang!(lang === "zh" ? "en" : "zh") : undefined}
          onReady={settle && !over && seated ? () => {
            setReady(true);
            send({ type: "ready" });
          } : null}
          ready={ready}
          nextAt={nextAt}
          footer={settle && over ? finishedLinks : null}
        >
          {settlementBody(shownSettlement)}
        </SettlementDialog>
      ) : null}
      {over && dialog === "closed" ? finishedLinks : null}
      {!settle || dialog === "closed" ? <Ledger lang={lang} room={room} me={state.seat} match={state.match} /> : null}
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
    </Wilds.Provider>
  );
}
