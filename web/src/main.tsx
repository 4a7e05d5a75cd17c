import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { tr, type Lang } from "./i18n";
import type { ItemNames } from "./names";
import { loadPrefs, paceMessage, savePrefs, type Prefs } from "./prefs";
import { Connection, tokenKey } from "./socket";
import { applyMessage, initialState, type ClientState, type RoomInfo } from "./state";
import type { CreateRoom, SeatChoice } from "./schema/client-messages";
import type { RestAnswers, ServerMessage } from "./schema/server-messages";
import { Lobby } from "./lobby";
import { changedOptions, variantsOnce } from "./variants";
import { Table } from "./table";
import { Replay } from "./replay";
import { Calculator } from "./calc";
import { Gallery } from "./gallery";
import { ReviewPage } from "./review/review";
import { MinePage } from "./review/mine";
import { rt } from "./review/text";
import "./style.css";

type Route =
  | { page: "lobby" }
  | { page: "room"; code: string }
  | { page: "replay"; id: string | null }
  | { page: "review"; id: string | null; seat: number | null }
  | { page: "mine" }
  | { page: "calc" }
  | { page: "faces" };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "room" && parts[1]) return { page: "room", code: parts[1].toUpperCase() };
  if (parts[0] === "replay") return { page: "replay", id: parts[1] || null };
  if (parts[0] === "review") {
    const seat = /^\d{1,2}$/.test(parts[2] ?? "") ? Number(parts[2]) : null;
    return { page: "review", id: parts[1] ? decodeURIComponent(parts[1]) : null, seat };
  }
  if (parts[0] === "mine") return { page: "mine" };
  if (parts[0] === "calc") return { page: "calc" };
  if (parts[0] === "faces") return { page: "faces" };
  return { page: "lobby" };
}

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem("paiju.lang");
    if (saved === "en" || saved === "zh") return saved;
  } catch {
    /* no storage */
  }
  return "zh";
}

function App() {
  const [route, setRoute] = useState<Route>(parseRoute(location.hash));
  const [lang, setLang] = useState<Lang>(initialLang());
  const [state, setState] = useState<ClientState>(initialState());
  const [items, setItems] = useState<ItemNames>({});
  const [prefs, setPrefsState] = useState<Prefs>(loadPrefs());
  // a dead socket is said for a few seconds even when the new one opens at once
  const [deadUntil, setDeadUntil] = useState(0);
  const setPrefs = (p: Prefs) => {
    if (p.botPace !== prefs.botPace) conn.send(paceMessage(p));
    setPrefsState(p);
    savePrefs(p);
  };
  const stateRef = useRef(state);
  const pendingSeat = useRef<{ name: string } | null>(null);

  const onServer = useRef<(msg: ServerMessage) => void>(() => undefined);
  const conn = useMemo(
    () =>
      new Connection(
        (msg: ServerMessage) => onServer.current(msg),
        (open, why) => {
          if (why === "dead") {
            setDeadUntil(performance.now() + 3000);
            setTimeout(() => setDeadUntil(0), 3100);
          }
          const next = { ...stateRef.current, connected: open };
          stateRef.current = next;
          setState(next);
        },
      ),
    [],
  );
  onServer.current = (msg: ServerMessage) => {
    if (msg.type === "room_created") {
      location.hash = `#/room/${msg.code}`;
      conn.room = msg.code;
    }
    if (msg.type === "error" && msg.code === "bad_token" && conn.room) {
      // the seat is gone (room reaped or given up before the start): watch instead
      localStorage.removeItem(tokenKey(conn.room));
      conn.send({ type: "join", code: conn.room });
    }
    // the bot pace lives with the connection on the server: said again on each new socket
    // and at each table entered (in a cluster the table's node may be another)
    if ((msg.type === "welcome" || msg.type === "snapshot") && prefs.botPace !== null) conn.send(paceMessage(prefs));
    const next = applyMessage(stateRef.current, msg, performance.now());
    stateRef.current = next;
    setState(next);
    if (msg.type === "room" && pendingSeat.current && msg.you?.host && msg.you.seat === null) {
      const free = msg.room.seats.find((s) => s.kind === "person" && !s.taken);
      const name = pendingSeat.current.name;
      pendingSeat.current = null;
      if (free) conn.send({ type: "take_seat", seat: free.seat, name });
    }
  };

  useEffect(() => {
    conn.open();
    // for the browser tests: the state, the socket, and ``feed`` (a server message, as if it came)
    (window as any).__paiju = { conn, state: () => stateRef.current, feed: (m: ServerMessage) => onServer.current(m) };
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onHash);
    if ("serviceWorker" in navigator && location.protocol !== "file:") {
      navigator.serviceWorker.register("./sw.js").catch(() => undefined);
    }
    fetch("/api/items")
      .then((r) => (r.ok ? (r.json() as Promise<RestAnswers["GET /api/items"]>) : {}))
      .then(setItems)
      .catch(() => undefined);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    if (route.page === "room" && conn.room !== route.code) {
      const fresh = { ...initialState(), connected: stateRef.current.connected };
      stateRef.current = fresh;
      setState(fresh);
      conn.enter(route.code);
    }
  }, [route]);

  useEffect(() => {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    try {
      localStorage.setItem("paiju.lang", lang);
    } catch {
      /* no storage */
    }
  }, [lang]);

  useEffect(() => {
    document.documentElement.classList.toggle("large-print", prefs.large);
  }, [prefs.large]);

  const again = (room: RoomInfo) => {
    // the same game, house rules, timers and seats (bots of the same levels) in a new room
    const seats = room.seats.map((s): SeatChoice => (s.kind === "bot" ? { kind: "bot", level: s.level ?? "greedy" } : { kind: "person" }));
    const me = stateRef.current.seat;
    const name = me !== null ? (room.seats[me]?.name ?? "") : "";
    const send = (options: CreateRoom["options"]) => create({ type: "create_room", variant: room.variant, options, seats, timers: room.timers }, name);
    // the room lists every option with its value, more than a create_room may carry: the
    // house rules are sent as the lobby sends them, only those that differ from the defaults
    variantsOnce().then(
      (all) => {
        const info = all.find((v) => v.name === room.variant);
        send(info ? changedOptions(info.options, room.options) : room.options);
      },
      () => send(room.options),
    );
  };

  const create = (msg: CreateRoom, name: string) => {
    pendingSeat.current = { name };
    conn.room = null;
    const fresh = { ...initialState(), connected: stateRef.current.connected };
    stateRef.current = fresh;
    setState(fresh);
    conn.send(msg);
  };

  return (
    <div class="app">
      <header class="topbar">
        <a href="#/" class="brand">{tr(lang, "app.title")}</a>
        <nav>
          <a href="#/" data-testid="nav-lobby">{tr(lang, "nav.lobby")}</a>
          <a href="#/replay" data-testid="nav-replay">{tr(lang, "nav.replay")}</a>
          <a href="#/review" data-testid="nav-review">{rt(lang, "nav.review")}</a>
          <a href="#/mine" data-testid="nav-mine">{rt(lang, "nav.mine")}</a>
          <a href="#/calc" data-testid="nav-calc">{tr(lang, "nav.calc")}</a>
          <a href="#/faces" data-testid="nav-faces">{tr(lang, "nav.faces")}</a>
          <button
            class="lang"
            data-testid="mute"
            aria-pressed={prefs.muted}
            onClick={() => setPrefs({ ...prefs, muted: !prefs.muted })}
          >
            {tr(lang, prefs.muted ? "pref.muted" : "pref.sound")}
          </button>
          <button class="lang" data-testid="large-print" aria-pressed={prefs.large} onClick={() => setPrefs({ ...prefs, large: !prefs.large })}>
            {tr(lang, "pref.large")}
          </button>
          <button class="lang" data-testid="lang-switch" onClick={() => setLang(lang === "zh" ? "en" : "zh")}>
            {tr(lang, "lang.switch")}
          </button>
        </nav>
      </header>
      {(!state.connected || deadUntil > 0) && (route.page === "lobby" || route.page === "room") ? (
        <div class="banner" data-testid="conn-banner" role="status">
          {tr(
            lang,
            deadUntil > 0 ? (state.connected ? "conn.back" : "conn.dead") : stateRef.current.room ? "conn.lost" : "conn.connecting",
          )}
        </div>
      ) : null}
      <main>
        {route.page === "lobby" && (
          <Lobby lang={lang} onCreate={create} error={state.errorCode || state.errorMessage ? { code: state.errorCode, message: state.errorMessage } : null} />
        )}
        {route.page === "room" && (
          <Table
            lang={lang}
            state={state}
            items={items}
            send={(m) => conn.send(m)}
            rejoin={() => conn.room && conn.rejoin(conn.room)}
            prefs={prefs}
            setPrefs={setPrefs}
            again={again}
            setLang={setLang}
          />
        )}
        {route.page === "replay" && <Replay lang={lang} id={route.id} items={items} />}
        {route.page === "review" && <ReviewPage lang={lang} id={route.id} seat={route.seat} items={items} />}
        {route.page === "mine" && <MinePage lang={lang} />}
        {route.page === "calc" && <Calculator lang={lang} items={items} />}
        {route.page === "faces" && <Gallery lang={lang} />}
      </main>
    </div>
  );
}

render(<App />, document.getElementById("app")!);
