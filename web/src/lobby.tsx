import { useEffect, useState } from "preact/hooks";
import { errorText, failureText, tr, type Lang } from "./i18n";
import { botLevelName } from "./names";
import { OptionsForm } from "./options";
import type { CreateRoom, SeatChoice } from "./schema/client-messages";
import type { RestAnswers, RoomInfo } from "./schema/server-messages";
import { fetchVariants, profileOptions, seatCount, variantName, type VariantInfo } from "./variants";

const TIMER_FIELDS: [string, number, number, number][] = [
  ["turn_seconds", 20, 1, 600],
  ["claim_seconds", 8, 1, 600],
  ["bank_seconds", 60, 0, 3600],
];

function OpenRooms(props: { lang: Lang }) {
  const { lang } = props;
  const [rooms, setRooms] = useState<RoomInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      fetch("/api/rooms?status=waiting")
        .then((r) => (r.ok ? (r.json() as Promise<RestAnswers["GET /api/rooms"]>) : Promise.reject(new Error(`HTTP ${r.status}`))))
        .then((list) => live && (setRooms(list), setError(null)))
        .catch((e) => live && setError(failureText(lang, e)));
    void load();
    const id = setInterval(load, 5000);
    return () => {
      live = false;
      clearInterval(id);
    };
  }, []);
  return (
    <section class="card-panel" data-testid="open-rooms">
      <h2>{tr(lang, "lobby.open")}</h2>
      {error ? <p class="error" role="alert">{tr(lang, "error", { m: error })}</p> : null}
      {rooms && !rooms.length ? <p class="muted">{tr(lang, "lobby.noopen")}</p> : null}
      <ul class="game-list">
        {(rooms ?? []).map((r) => {
          const free = r.seats.filter((s) => s.kind === "person" && !s.taken).length;
          return (
            <li>
              <a href={`#/room/${r.code}`} data-testid={`open-room-${r.code}`}>
                {tr(lang, `variant.${r.variant}`)} · {r.code}
              </a>{" "}
              <span class="muted">{tr(lang, "lobby.free", { n: free })}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Lobby(props: { lang: Lang; onCreate: (msg: CreateRoom, name: string) => void; error: { code: string | null; message: string | null } | null }) {
  const { lang } = props;
  const [variants, setVariants] = useState<VariantInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [variant, setVariant] = useState("taixing");
  const [hands, setHands] = useState("full");
  const [name, setName] = useState("");
  const [code, setCode] = useState("");
  const [seats, setSeats] = useState<string[]>([]);
  const [options, setOptions] = useState<Record<string, Record<string, unknown>>>({});
  /** Per game: the rule profile chosen (the first, the seed's defaults, when none). */
  const [profiles, setProfiles] = useState<Record<string, string>>({});
  const [timers, setTimers] = useState<Record<string, number>>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    fetchVariants()
      .then((vs) => {
        setVariants(vs);
        if (!vs.some((v) => v.name === variant) && vs.length) setVariant(vs[0].name);
      })
      .catch((e) => setLoadError(failureText(lang, e)));
  }, []);

  const info = variants?.find((v) => v.name === variant) ?? null;
  const chosen = info?.profiles.find((p) => p.name === profiles[variant]) ?? null;
  // the first profile is the seed's defaults: a table of it needs no profile named
  const profile = chosen && info && chosen !== info.profiles[0] ? chosen : null;
  // what the form shows: the profile's values, the player's own over them
  const values: Record<string, unknown> = { ...(profile?.options ?? {}), ...(options[variant] ?? {}) };
  const n = info ? seatCount(info, values) : 0;
  const bots = info?.bots ?? [];
  const fallbackBot = info?.defaultBot ?? bots[0] ?? "person";
  const shown = Array.from({ length: n }, (_, i) => {
    const s = seats[i] ?? (i === 0 ? "person" : fallbackBot);
    // a level this game's tables do not offer falls back to the default
    return s === "person" || bots.includes(s) ? s : fallbackBot;
  });

  const create = () => {
    if (!info) return;
    setFormError(null);
    const opts = profileOptions(info.options, profile, options[variant] ?? {});
    if (hands !== "full") opts.hands = Number(hands);
    const seatChoices = shown.map((s): SeatChoice => (s === "person" ? { kind: "person" } : { kind: "bot", level: s }));
    const msg: CreateRoom = { type: "create_room", variant, options: opts, seats: seatChoices };
    if (Object.keys(timers).length) {
      for (const [k, v] of Object.entries(timers)) {
        const spec = TIMER_FIELDS.find((t) => t[0] === k)!;
        if (!Number.isFinite(v) || v < spec[2] || v > spec[3]) {
          setFormError(tr(lang, "err.bad_options") + `: ${tr(lang, `lobby.${k}`)} ${spec[2]}–${spec[3]}`);
          return;
        }
      }
      msg.timers = { ...Object.fromEntries(TIMER_FIELDS.map(([k, d]) => [k, d])), ...timers };
    }
    props.onCreate(msg, name.trim());
  };

  const serverError = props.error ? errorText(lang, props.error.code, props.error.message) : null;
  return (
    <div class="lobby">
      <section class="card-panel">
        <h2>{tr(lang, "lobby.create")}</h2>
        {loadError ? (
          <p class="error" role="alert" data-testid="lobby-error">
            {tr(lang, "lobby.badvariants", { m: loadError })}
          </p>
        ) : null}
        {!variants && !loadError ? <p class="muted">{tr(lang, "lobby.loading")}</p> : null}
        <div class="field">
          <span id="game-label">{tr(lang, "lobby.game")}</span>
          <div class="choices" role="group" aria-labelledby="game-label">
            {(variants ?? []).map((v) => (
              <button
                class={v.name === variant ? "choice on" : "choice"}
                data-testid={`variant-${v.name}`}
                aria-pressed={v.name === variant}
                onClick={() => setVariant(v.name)}
              >
                {variantName(lang, v, tr(lang, `variant.${v.name}`))}
              </button>
            ))}
          </div>
        </div>
        <label>
          {tr(lang, "lobby.hands")}
          <select data-testid="hands" value={hands} onChange={(e) => setHands((e.target as HTMLSelectElement).value)}>
            <option value="full">{tr(lang, "lobby.hands.full")}</option>
            <option value="1">{tr(lang, "lobby.hands.one")}</option>
            <option value="4">{tr(lang, "lobby.hands.four")}</option>
          </select>
        </label>
        <label>
          {tr(lang, "lobby.name")}
          <input data-testid="name" maxLength={24} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <div class="seat-choices">
          <span>{tr(lang, "lobby.seats")}</span>
          {shown.map((s, i) => (
            <select
              data-testid={`seat-choice-${i}`}
              aria-label={`${tr(lang, "lobby.seats")} ${i + 1}`}
              value={s}
              onChange={(e) => {
                const next = shown.slice();
                next[i] = (e.target as HTMLSelectElement).value;
                setSeats(next);
              }}
            >
              <option value="person">{`${i + 1}. ${tr(lang, "lobby.person")}`}</option>
              {bots.map((b) => (
                <option value={b}>{`${i + 1}. ${tr(lang, "lobby.bot")}（${info?.botNames[b] ? (lang === "en" ? info.botNames[b].en : info.botNames[b].zh) : botLevelName(lang, b)}）`}</option>
              ))}
            </select>
          ))}
        </div>
        {info && info.profiles.length > 1 ? (
          <label>
            {tr(lang, "lobby.profile")}
            <select
              data-testid="profile"
              value={chosen?.name ?? info.profiles[0].name}
              onChange={(e) => {
                // a profile sets the form to its values: the player's changes start again
                setProfiles({ ...profiles, [variant]: (e.target as HTMLSelectElement).value });
                setOptions({ ...options, [variant]: {} });
              }}
            >
              {info.profiles.map((p) => (
                <option value={p.name}>{`${lang === "en" ? p.label.en : p.label.zh} (v${p.version})`}</option>
              ))}
            </select>
          </label>
        ) : null}
        {info ? (
          <details class="house-rules" data-testid="house-rules">
            <summary>{tr(lang, "lobby.rules")}</summary>
            <OptionsForm
              lang={lang}
              variant={variant}
              ruleBook={info.ruleBook}
              fields={info.options}
              values={values}
              skip={["hands"]}
              onChange={(k, v) => setOptions({ ...options, [variant]: { ...(options[variant] ?? {}), [k]: v } })}
            />
          </details>
        ) : null}
        <details class="timers" data-testid="timers">
          <summary>{tr(lang, "lobby.timers")}</summary>
          {TIMER_FIELDS.map(([k, d, lo, hi]) => (
            <label class="opt">
              {tr(lang, `lobby.${k}`)}
              <input
                type="number"
                data-testid={`timer-${k}`}
                min={lo}
                max={hi}
                value={timers[k] ?? d}
                onInput={(e) => setTimers({ ...timers, [k]: Number((e.target as HTMLInputElement).value) })}
              />
            </label>
          ))}
        </details>
        {formError ? <p class="error" role="alert">{formError}</p> : null}
        {serverError ? (
          <p class="error" role="alert" data-testid="create-error">
            {tr(lang, "error", { m: serverError })}
          </p>
        ) : null}
        <button class="primary" data-testid="create" disabled={!info} onClick={create}>
          {tr(lang, "lobby.go")}
        </button>
      </section>
      <section class="card-panel">
        <h2>{tr(lang, "lobby.join")}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const c = code.trim().toUpperCase();
            if (c) location.hash = `#/room/${c}`;
          }}
        >
          <input
            data-testid="join-code"
            aria-label={tr(lang, "lobby.code")}
            placeholder={tr(lang, "lobby.code")}
            maxLength={10}
            value={code}
            onInput={(e) => setCode((e.target as HTMLInputElement).value)}
          />
          <button class="primary" data-testid="join" type="submit">
            {tr(lang, "lobby.enter")}
          </button>
        </form>
      </section>
      <OpenRooms lang={lang} />
    </div>
  );
}
