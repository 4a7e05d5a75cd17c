import { useEffect, useState } from "preact/hooks";
import { PieceView } from "./faces";
import { OptionsForm } from "./options";
import { fetchVariants, type VariantInfo } from "./variants";
import { tr, type Lang } from "./i18n";
import { itemName, type ItemNames } from "./names";
import { parsePieces } from "./notation";
import type { Json } from "./state";
import { Pieces } from "./pieces";
import { Formula } from "./settlement";

// Starting points people can edit; each is a valid win under the default options.
const EXAMPLES: Record<string, Json> = {
  jiaxing: {
    variant: "jiaxing",
    options: {},
    dealer: 0,
    winner: 1,
    hand: "55z",
    melds: [
      { type: "pong", tiles: "777s", from: 2 },
      { type: "kong", tiles: "8888p", from: 3 },
      { type: "added_kong", tiles: "9999p", from: 3 },
      { type: "concealed_kong", tiles: "1111z" },
    ],
    flowers: "",
    win_tile: "5z",
    win_type: "discard",
    from: 2,
    flags: [],
  },
  taixing: {
    variant: "taixing",
    dealer: 0,
    winner: 1,
    hand: "11122255588899s",
    melds: [],
    flowers: "1f2f",
    win_tile: "9s",
    win_type: "discard",
    from: 2,
  },
  qinger: {
    variant: "qinger",
    stakes: [1, 2, 3],
    dealer: 0,
    indicator: "5h",
    winner: 0,
    win_type: "discard",
    win_tile: "9s",
    from: 2,
    players: [
      { hand: "123h456h789h234c678c345s99s", melds: [{ type: "pong", tiles: "777s", from: 1 }], flowers: "BJSJ", takeoffs: [], knocked: true },
      { hand: "2468s", melds: [], flowers: "", takeoffs: [], knocked: false },
      { hand: "2468h", melds: [], flowers: "", takeoffs: [], knocked: false },
    ],
  },
};

const TILE_PICKER = ["123456789m", "123456789p", "123456789s", "1234567z"].flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1)));
const FLOWER_PICKER = [..."12345678"].map((d) => `${d}f`);
const CARD_PICKER = ["s", "h", "c"].flatMap((s) => [..."123456789"].map((r) => r + s)).concat(["Jh", "Jc", "Qh", "Qc", "Kh", "Kc", "BJ", "SJ", "AD"]);

/** Buttons that add a piece to a notation field (as typing it would). */
function Picker(props: { lang: Lang; variant: string; pieces: string[]; onPick: (p: string) => void; onClear: () => void; testid: string }) {
  const { lang } = props;
  return (
    <div class="picker" data-testid={props.testid} role="group" aria-label={tr(lang, "calc.picker")}>
      <span class="muted small">{tr(lang, "calc.picker")}</span>
      <div class="picker-row">
        {props.pieces.map((p) => (
          <button class="pick" data-testid={`pick-${p}`} onClick={() => props.onPick(p)}>
            <PieceView variant={props.variant} piece={p} lang={lang} />
          </button>
        ))}
        <button class="secondary" data-testid={`${props.testid}-clear`} onClick={props.onClear}>
          {tr(lang, "calc.clear")}
        </button>
      </div>
    </div>
  );
}

const FLAGS = ["kong_replacement", "after_kong_discard", "last_tile", "heavenly", "earthly", "human", "ready_at_deal", "multiple_winners"];

/** The common fields of a mahjong situation as a form; melds and options stay in the JSON. */
function MahjongForm(props: { lang: Lang; value: Json; onChange: (v: Json) => void; flags: string[] }) {
  const { lang, value } = props;
  const set = (key: string, v: unknown) => {
    const next = { ...value };
    if (v === "" || v === null) delete next[key];
    else next[key] = v;
    props.onChange(next);
  };
  const seat = (key: string) => (
    <label class="inline">
      {tr(lang, `calc.${key}`)}
      <select data-testid={`calc-${key}`} value={value[key] ?? ""} onChange={(e) => {
        const raw = (e.target as HTMLSelectElement).value;
        set(key, raw === "" ? null : Number(raw));
      }}>
        <option value="">—</option>
        {[0, 1, 2, 3].map((n) => <option value={n}>{tr(lang, "calc.seat", { n: n + 1 })}</option>)}
      </select>
    </label>
  );
  const text = (key: string) => (
    <label class="inline">
      {tr(lang, `calc.${key}`)}
      <input data-testid={`calc-${key}`} value={value[key] ?? ""} size={18} onInput={(e) => set(key, (e.target as HTMLInputElement).value)} />
    </label>
  );
  const flags: string[] = Array.isArray(value.flags) ? value.flags : [];
  return (
    <div class="calc-form">
      <div>
        {text("hand")}
        {text("win_tile")}
        {value.variant === "taixing" ? text("flowers") : null}
      </div>
      <Picker
        lang={lang}
        variant={value.variant}
        pieces={TILE_PICKER}
        testid="hand-picker"
        onPick={(p) => set("hand", `${value.hand ?? ""}${p}`)}
        onClear={() => set("hand", "")}
      />
      {value.variant === "taixing" ? (
        <Picker lang={lang} variant="taixing" pieces={FLOWER_PICKER} testid="flower-picker" onPick={(p) => set("flowers", `${value.flowers ?? ""}${p}`)} onClear={() => set("flowers", "")} />
      ) : null}
      <div>
        {seat("dealer")}
        {seat("winner")}
        <label class="inline">
          {tr(lang, "calc.win_type")}
          <select data-testid="calc-win_type" value={value.win_type ?? "self_draw"} onChange={(e) => {
            const how = (e.target as HTMLSelectElement).value;
            const next: Json = { ...value, win_type: how };
            // a self-drawn win has no discarder; the calculator refuses one
            if (how === "self_draw") delete next.from;
            props.onChange(next);
          }}>
            {["self_draw", "discard", "robbed_kong"].map((w) => <option value={w}>{tr(lang, `calc.${w}`)}</option>)}
          </select>
        </label>
        {value.win_type !== "self_draw" ? seat("from") : null}
      </div>
      <div class="flags">
        {props.flags.map((f) => (
          <label class="inline">
            <input type="checkbox" checked={flags.includes(f)} onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              set("flags", on ? flags.concat([f]) : flags.filter((x) => x !== f));
            }} />
            {tr(lang, `flag.${f}`)}
          </label>
        ))}
      </div>
    </div>
  );
}

function pretty(obj: Json): string {
  return JSON.stringify(obj, null, 2);
}

export function Calculator(props: { lang: Lang; items: ItemNames }) {
  const { lang } = props;
  const [text, setText] = useState(pretty(EXAMPLES.taixing));
  const [result, setResult] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [variants, setVariants] = useState<VariantInfo[]>([]);
  useEffect(() => {
    fetchVariants().then(setVariants, (e) => setError(tr(lang, "lobby.badvariants", { m: String(e.message ?? e) })));
  }, []);

  let variant = "";
  let preview: Json | null = null;
  try {
    preview = JSON.parse(text);
    variant = preview?.variant ?? "";
  } catch {
    preview = null;
  }

  const go = async () => {
    setError(null);
    setResult(null);
    let r: Response;
    let body: Json;
    try {
      r = await fetch("/api/score", { method: "POST", body: text, headers: { "content-type": "application/json" } });
      body = await r.json();
    } catch (e) {
      setError(tr(lang, "err.network"));
      return;
    }
    if (r.status === 422) setError(body.error ?? JSON.stringify(body));
    else if (!r.ok) setError(body.detail ?? r.statusText);
    else setResult(body);
  };

  const info = variants.find((v) => v.name === variant);
  let handPieces: string[] = [];
  try {
    if (preview && variant !== "qinger") handPieces = parsePieces(variant, preview.hand);
  } catch {
    handPieces = [];
  }

  const seats = (arr: number[]) => (
    <table class="net">
      <tbody>
        <tr>{arr.map((_, s) => <th>{tr(lang, "calc.seat", { n: s + 1 })}</th>)}</tr>
        <tr>{arr.map((v) => <td class={v >= 0 ? "plus" : "minus"}>{v > 0 ? `+${v}` : v}</td>)}</tr>
      </tbody>
    </table>
  );

  return (
    <div class="calc">
      <section class="card-panel">
        <h2>{tr(lang, "calc.title")}</h2>
        <p>{tr(lang, "calc.help")}</p>
        <div class="choices">
          {Object.keys(EXAMPLES).map((v) => (
            <button class="choice" data-testid={`calc-example-${v}`} onClick={() => setText(pretty(EXAMPLES[v]))}>
              {tr(lang, "calc.example")}: {tr(lang, `variant.${v}`)}
            </button>
          ))}
        </div>
        {preview && variant !== "qinger" ? (
          <MahjongForm lang={lang} value={preview} onChange={(v) => setText(pretty(v))} flags={info?.flags ?? FLAGS} />
        ) : null}
        {preview && variant === "qinger" && Array.isArray(preview.players) && typeof preview.winner === "number" && preview.players[preview.winner] ? (
          <Picker
            lang={lang}
            variant="qinger"
            pieces={CARD_PICKER}
            testid="hand-picker"
            onPick={(p) => {
              const players = preview!.players.slice();
              const w = preview!.winner;
              players[w] = { ...players[w], hand: `${players[w].hand ?? ""}${p}` };
              setText(pretty({ ...preview, players }));
            }}
            onClear={() => {
              const players = preview!.players.slice();
              players[preview!.winner] = { ...players[preview!.winner], hand: "" };
              setText(pretty({ ...preview, players }));
            }}
          />
        ) : null}
        {preview && info && info.options.length ? (
          <details class="house-rules" data-testid="calc-options">
            <summary>{tr(lang, "calc.options")}</summary>
            <OptionsForm
              lang={lang}
              variant={variant}
              fields={info.options}
              values={preview.options ?? {}}
              skip={["hands", "rounds"]}
              onChange={(k, v) => {
                const options = { ...(preview!.options ?? {}) };
                const field = info.options.find((f) => f.name === k);
                if (field && v === field.default) delete options[k];
                else options[k] = v;
                setText(pretty({ ...preview, options }));
              }}
            />
          </details>
        ) : null}
        <textarea data-testid="calc-input" rows={16} spellcheck={false} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
        {handPieces.length ? <Pieces variant={variant} pieces={handPieces} small /> : null}
        <div>
          <button class="primary" data-testid="calc-go" onClick={go}>
            {tr(lang, "calc.go")}
          </button>
        </div>
      </section>
      {error ? (
        <p class="error" data-testid="calc-error">
          {tr(lang, "calc.error", { r: error })}
        </p>
      ) : null}
      {result ? (
        <section class="card-panel" data-testid="calc-result">
          {result.valid ? (
            <p class="headline">{tr(lang, "calc.valid")}</p>
          ) : (
            <p class="headline">{tr(lang, "calc.invalid", { r: result.reason ?? "" })}</p>
          )}
          {result.valid && result.variant !== "qinger" ? (
            <table class="items">
              <tbody>
                {(result.items ?? []).map((it: Json) => (
                  <tr>
                    <td>{itemName(props.items, result.variant, it.id, it.name, lang)}</td>
                    <td class="num">{it.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {result.valid && result.variant === "qinger"
            ? (result.items as Json[][]).map((row, s) => (
                <div class="score-block">
                  <h4>
                    {tr(lang, "calc.seat", { n: s + 1 })} · {tr(lang, "settle.score", { v: result.scores[s] })}
                  </h4>
                  <table class="items">
                    <tbody>
                      {row.map((it) => (
                        <tr>
                          <td>{itemName(props.items, "qinger", it.id, it.name, lang)}</td>
                          <td class="num">{it.value}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ))
            : null}
          {Array.isArray(result.explanation?.formula) ? (
            <div data-testid="calc-explanation">
              <h4>{tr(lang, "calc.explanation")}</h4>
              <Formula lang={lang} steps={result.explanation.formula} />
              {Array.isArray(result.explanation.payments) && result.explanation.payments.length ? (
                <ul class="payments">
                  {result.explanation.payments.map((p: Json) => (
                    <li>
                      {tr(lang, "settle.pays", { a: tr(lang, "calc.seat", { n: p.payer + 1 }), b: tr(lang, "calc.seat", { n: p.payee + 1 }), v: p.amount })}{" "}
                      <span class="reason">{lang === "en" ? p.en : p.zh}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          {result.payments ? (
            <>
              <h4>{tr(lang, "calc.payments")}</h4>
              {seats(result.payments)}
            </>
          ) : null}
          {result.kong_payments ? (
            <>
              <h4>{tr(lang, "calc.kong")}</h4>
              {seats(result.kong_payments)}
            </>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
