import { useEffect, useState } from "preact/hooks";
import { tr, type Lang } from "./i18n";
import type { Json } from "./state";

const VARIANTS = ["taixing", "jiaxing", "qinger"];
const SEATS: Record<string, number> = { jiaxing: 4, taixing: 4, qinger: 3 };

export function Lobby(props: { lang: Lang; onCreate: (msg: Json, name: string) => void }) {
  const { lang } = props;
  const [variant, setVariant] = useState("taixing");
  const [hands, setHands] = useState("full");
  const [name, setName] = useState("");
  const [code, setCode] = useState("");
  const [bots, setBots] = useState<string[]>(["greedy", "random"]);
  const [seats, setSeats] = useState<string[]>(["person", "greedy", "greedy", "greedy"]);

  useEffect(() => {
    fetch("/api/variants")
      .then((r) => r.json())
      .then((vs: Json[]) => {
        const found = vs.find((v) => v.name === variant);
        if (found?.bots?.length) setBots(found.bots);
      })
      .catch(() => undefined);
  }, []);

  const n = SEATS[variant];
  const shown = seats.slice(0, n);
  while (shown.length < n) shown.push("greedy");

  const create = () => {
    const options: Json = {};
    if (hands !== "full") options.hands = Number(hands);
    const seatChoices = shown.map((s) => (s === "person" ? { kind: "person" } : { kind: "bot", level: s }));
    props.onCreate({ type: "create_room", variant, options, seats: seatChoices }, name.trim());
  };

  return (
    <div class="lobby">
      <section class="card-panel">
        <h2>{tr(lang, "lobby.create")}</h2>
        <label>
          {tr(lang, "lobby.game")}
          <div class="choices" role="radiogroup">
            {VARIANTS.map((v) => (
              <button
                class={v === variant ? "choice on" : "choice"}
                data-testid={`variant-${v}`}
                aria-pressed={v === variant}
                onClick={() => setVariant(v)}
              >
                {tr(lang, `variant.${v}`)}
              </button>
            ))}
          </div>
        </label>
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
              value={s}
              onChange={(e) => {
                const next = shown.slice();
                next[i] = (e.target as HTMLSelectElement).value;
                setSeats(next);
              }}
            >
              <option value="person">{`${i + 1}. ${tr(lang, "lobby.person")}`}</option>
              {bots.map((b) => (
                <option value={b}>{`${i + 1}. ${tr(lang, "lobby.bot")} (${b})`}</option>
              ))}
            </select>
          ))}
        </div>
        <button class="primary" data-testid="create" onClick={create}>
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
    </div>
  );
}
