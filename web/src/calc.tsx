import { useState } from "preact/hooks";
import { tr, type Lang } from "./i18n";
import type { ItemNames } from "./main";
import { itemName } from "./table";
import { parsePieces } from "./notation";
import type { Json } from "./state";
import { Pieces } from "./table";

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

function pretty(obj: Json): string {
  return JSON.stringify(obj, null, 2);
}

export function Calculator(props: { lang: Lang; items: ItemNames }) {
  const { lang } = props;
  const [text, setText] = useState(pretty(EXAMPLES.taixing));
  const [result, setResult] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);

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
    const r = await fetch("/api/score", { method: "POST", body: text, headers: { "content-type": "application/json" } });
    const body = await r.json();
    if (r.status === 422) setError(body.error ?? JSON.stringify(body));
    else if (!r.ok) setError(body.detail ?? r.statusText);
    else setResult(body);
  };

  let handPieces: string[] = [];
  try {
    if (preview && variant !== "qinger") handPieces = parsePieces(variant, preview.hand);
  } catch {
    handPieces = [];
  }

  const seats = (arr: number[]) => (
    <table class="net">
      <tbody>
        <tr>{arr.map((_, s) => <th>{tr(lang, "calc.seat", { n: s })}</th>)}</tr>
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
                    {tr(lang, "calc.seat", { n: s })} · {tr(lang, "settle.score", { v: result.scores[s] })}
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
