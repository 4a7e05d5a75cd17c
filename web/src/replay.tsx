import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { bracket, failureText, joinList, tr, type Lang } from "./i18n";
import { botLevelName, seatName, signed, type ItemNames } from "./names";
import { initialState, type ClientState, type RoomInfo } from "./state";
import type { ErrorAnswer, GameSeat, GameSummary, ReplayAnswer, ReplayFrame as FrameAnswer, RestAnswers } from "./schema/server-messages";
import { eventsOf, handView, type HandView } from "./view";
import { Wilds, wildsOf } from "./faces";
import { PcButton } from "./pieces";
import { actionPiece } from "./notation";
import { actionLabel } from "./hand";
import { SettlementView } from "./settlement";
import { CenterInfo, PlayerArea } from "./table";
import { rt } from "./review/text";

/** One state of a replayed match (``GET /api/games/{id}/frames``, ``POST /api/replay``):
 * the spectator's view with every concealed hand, the events that led to it. The server
 * takes no frame between hands, so its view always shows a hand (``replayData`` checks). */
export interface ReplayFrame extends Omit<FrameAnswer, "state"> {
  state: HandView;
}

export interface ReplayData extends Omit<ReplayAnswer, "frames"> {
  frames: ReplayFrame[];
}

/** The server's answer with each frame's view narrowed to a hand's (one that is not is
 * dropped rather than drawn as a table it is not). */
export function replayData(answer: ReplayAnswer): ReplayData {
  const frames: ReplayFrame[] = [];
  for (const frame of answer.frames ?? []) {
    const state = handView(frame.state);
    if (state) frames.push({ ...frame, state });
  }
  return { ...answer, frames };
}

function fakeRoom(data: ReplayData): RoomInfo {
  const n = data.frames[0]?.state.players.length ?? data.seats.length;
  return {
    code: "",
    variant: data.variant,
    n_seats: n,
    options: data.options,
    status: "finished",
    seats: Array.from({ length: n }, (_, i) => {
      const label: string = data.seats[i] ?? `${i + 1}`;
      const bot = label.startsWith("bot:");
      return {
        seat: i,
        kind: bot ? "bot" : "person",
        level: bot ? label.slice(4) : null,
        name: bot ? "" : label,
        taken: true,
        connected: true,
        bot_playing: false,
      };
    }),
    timers: {},
    game_id: null,
    spectators: 0,
  } as RoomInfo;
}

/** A stored time (ISO text or seconds since 1970) as a local date and time. */
export function formatDate(lang: Lang, v: unknown): string {
  if (v === null || v === undefined || v === "") return "";
  const d = typeof v === "number" ? new Date(v < 1e12 ? v * 1000 : v) : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return d.toLocaleString(lang === "en" ? "en-GB" : "zh-CN", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

function GameList(props: { lang: Lang }) {
  const [games, setGames] = useState<GameSummary[] | null>(null);
  useEffect(() => {
    fetch("/api/games?status=finished&limit=30")
      .then((r) => (r.ok ? (r.json() as Promise<RestAnswers["GET /api/games"]>) : []))
      .then(setGames)
      .catch(() => setGames([]));
  }, []);
  if (games === null) return null;
  if (!games.length) return <p class="muted">{tr(props.lang, "replay.none")}</p>;
  return (
    <ul class="game-list" data-testid="game-list">
      {games.map((g) => (
        <li>
          <a href={`#/replay/${g.id}`} data-testid="game-link">
            <time>{formatDate(props.lang, g.updated_at ?? g.created_at)}</time> · {tr(props.lang, `variant.${g.variant}`)} ·{" "}
            {joinList(
              props.lang,
              (g.seats ?? []).map((s: GameSeat, k: number) => {
                const who = s.kind === "bot" ? tr(props.lang, "room.bot") + bracket(props.lang, botLevelName(props.lang, s.level)) : s.name || tr(props.lang, "seat.n", { n: k + 1 });
                return `${who} ${signed(g.result?.totals?.[k] ?? 0)}`;
              }),
            )}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Why the server would not replay a game, in the page's language (its own words after). */
export function replayRefusal(lang: Lang, status: number, detail: string): string {
  const key = `replay.http.${status}`;
  const text = tr(lang, key);
  if (text === key) return detail;
  return lang === "en" ? `${text} (${detail})` : `${text}（${detail}）`;
}

export function Replay(props: { lang: Lang; id: string | null; items: ItemNames }) {
  const { lang } = props;
  const [data, setData] = useState<ReplayData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [i, setI] = useState(0);

  const load = (p: Promise<Response>) => {
    setError(null);
    p.then(async (r) => {
      const body: unknown = await r.json().catch(() => ({ detail: `HTTP ${r.status}` }));
      if (!r.ok) {
        const detail = (body as ErrorAnswer | null)?.detail;
        throw new Error(replayRefusal(lang, r.status, typeof detail === "string" ? detail : JSON.stringify(body)));
      }
      setData(replayData(body as RestAnswers["GET /api/games/{game_id}/frames"]));
      setI(0);
    }).catch((e) => setError(failureText(lang, e)));
  };

  useEffect(() => {
    if (props.id) load(fetch(`/api/games/${encodeURIComponent(props.id)}/frames`));
    else setData(null);
  }, [props.id]);

  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!data) return;
      if (e.key === "ArrowRight") setI((k) => Math.min(k + 1, data.frames.length - 1));
      if (e.key === "ArrowLeft") setI((k) => Math.max(k - 1, 0));
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [data]);

  const upload = (file: File | undefined) => {
    if (!file) return;
    file.text().then((text) => load(fetch("/api/replay", { method: "POST", body: text })));
  };

  const header = (
    <section class="card-panel">
      <h2>{tr(lang, "replay.title")}</h2>
      <label>
        {tr(lang, "replay.file")}
        <input type="file" accept=".jsonl,.json,.txt" data-testid="replay-file" onChange={(e) => upload((e.target as HTMLInputElement).files?.[0])} />
      </label>
      {error ? (
        <p class="error" role="alert" data-testid="replay-error">
          {tr(lang, "replay.error", { m: error })}
        </p>
      ) : null}
      {!props.id ? <GameList lang={lang} /> : (
        <p>
          <a href={`#/review/${encodeURIComponent(props.id)}`} data-testid="replay-review-link">
            {rt(lang, "review.link")}
          </a>
        </p>
      )}
    </section>
  );
  if (!data || !data.frames.length) return <div class="replay">{header}</div>;
  const frame = data.frames[i];
  const room = fakeRoom(data);
  const state: ClientState = {
    ...initialState(),
    connected: true,
    room,
    game: { turn: i, hand: frame.hand, state: frame.state, legal: [], to_act: frame.state.to_act, timers: [] },
    match: { totals: frame.totals },
  };
  const n = room.n_seats;
  const names = (s: number) => seatName(lang, room, s, null);
  const ended = frame.state.phase === "end";
  return (
    <Wilds.Provider value={wildsOf(frame.state)}>
    <div class="replay">
      {header}
      <div class="replay-controls">
        <button data-testid="replay-first" onClick={() => setI(0)}>|◀ {tr(lang, "replay.first")}</button>
        <button data-testid="replay-prev" onClick={() => setI(Math.max(0, i - 1))}>◀ {tr(lang, "replay.prev")}</button>
        <span data-testid="replay-step">{tr(lang, "replay.step", { i: i + 1, n: data.frames.length })}</span>
        <button data-testid="replay-next" onClick={() => setI(Math.min(data.frames.length - 1, i + 1))}>{tr(lang, "replay.next")} ▶</button>
        <button data-testid="replay-last" onClick={() => setI(data.frames.length - 1)}>{tr(lang, "replay.last")} ▶|</button>
        <input
          type="range"
          min={0}
          max={data.frames.length - 1}
          value={i}
          onInput={(e) => setI(Number((e.target as HTMLInputElement).value))}
        />
      </div>
      <p class="muted" data-testid="replay-action">
        {frame.action ? (
          <>
            {names(frame.action.seat)}: {actionLabel(lang, frame.action.action)}{" "}
            {actionPiece(frame.action.action) ? (
              <PcButton variant={data.variant} piece={actionPiece(frame.action.action)!} lang={lang} class="inline" />
            ) : null}
          </>
        ) : (
          tr(lang, "table.hand", { n: frame.hand + 1 })
        )}
      </p>
      <div class="replay-board">
        <CenterInfo lang={lang} state={state} />
        {Array.from({ length: n }, (_, s) => (
          <PlayerArea lang={lang} state={state} seat={s} side="list" now={0} />
        ))}
      </div>
      {ended ? (
        <section class="settlement card-panel">
          <SettlementView
            lang={lang}
            room={room}
            me={null}
            variant={data.variant}
            winners={eventsOf(frame.events, "win")[0]?.winners ?? []}
            exhausted={!eventsOf(frame.events, "win").length}
            net={frame.state.net}
            events={frame.events}
            state={frame.state}
            items={props.items}
          />
        </section>
      ) : null}
    </div>
    </Wilds.Provider>
  );
}
