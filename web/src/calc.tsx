import { useEffect, useState } from "preact/hooks";
import { PieceView, Wilds } from "./faces";
import { OptionsForm } from "./options";
import { fetchVariants, type OptionField, type VariantInfo } from "./variants";
import { failureText, tr, type Lang } from "./i18n";
import { itemName, withSeatNames, type ItemNames } from "./names";
import { parsePieces } from "./notation";
import { Pieces } from "./pieces";
import type { ErrorAnswer, RestAnswers } from "./schema/server-messages";
import { Formula } from "./settlement";

/** A situation as the person typed it (the body of POST /api/score, docs/spec/score-cli.md):
 * any JSON object. The form reads what it can; the server checks all of it. */
export type Situation = { [field: string]: unknown };

/** The calculator's answer, generated from the server's schema. */
export type ScoreAnswer = RestAnswers["POST /api/score"];

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
const fields = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

// Starting points people can edit; each is a valid win under the default options.
const EXAMPLES: Record<string, Situation> = {
  // docs/spec/score-cli.md: 5s turned up, so 5s and 6s are wild; the 6s pairs the winning 5p (混儿吊)
  jiaxing_hun: {
    variant: "jiaxing",
    options: { hun: true },
    hun: "5s",
    dealer: 0,
    winner: 1,
    hand: "123m456p789s111z5p6s",
    melds: [],
    win_tile: "5p",
    win_type: "discard",
    from: 2,
  },
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

/** The kind after ``p`` in the 混儿 indicator cycle (docs/spec/score-cli.md: 1…9→1 in a
 * suit, 东→南→西→北→东, 中→发→白→中). */
function nextKind(p: string): string {
  const n = Number(p[0]);
  const suit = p[1];
  if (suit !== "z") return `${(n % 9) + 1}${suit}`;
  return n <= 4 ? `${(n % 4) + 1}z` : `${((n - 5 + 1) % 3) + 5}z`;
}

/**
 * The tiles a calculator situation makes wild: with Jiaxing's ``hun`` option on, the
 * indicator in ``hun`` and the ``hun_kinds − 1`` kinds after it (the option's value, else
 * its default from /api/variants). Empty while the situation names no usable indicator.
 */
export function calcWilds(situation: Situation | null, optionFields: OptionField[] | undefined): ReadonlySet<string> {
  const none = new Set<string>();
  const options = fields(situation?.options);
  if (!situation || situation.variant !== "jiaxing" || options.hun !== true) return none;
  let tiles: string[];
  try {
    tiles = parsePieces("jiaxing", typeof situation.hun === "string" ? situation.hun : "");
  } catch {
    return none;
  }
  if (tiles.length !== 1 || !/^([1-9][mps]|[1-7]z)$/.test(tiles[0])) return none;
  const option = options.hun_kinds ?? optionFields?.find((f) => f.name === "hun_kinds")?.default ?? 2;
  const n = typeof option === "number" && option >= 1 ? Math.floor(option) : 2;
  const out = [tiles[0]];
  while (out.length < n) out.push(nextKind(out[out.length - 1]));
  return new Set(out);
}

/** A calculator answer's "中文 / English" reason in the page's language. */
export function calcReason(lang: Lang, reason: string): string {
  const cut = reason.indexOf(" / ");
  if (cut < 0) return reason;
  return lang === "en" ? reason.slice(cut + 3) : reason.slice(0, cut);
}

/** A refused situation ("hand: unexpected 'x' at 1"): the field named in the page's
 * language, then the server's own words. */
export function calcErrorText(lang: Lang, error: string): string {
  const m = /^([A-Za-z_]+)([^:\s]*): ([\s\S]*)$/.exec(error);
  if (!m) return tr(lang, "calc.error", { r: error });
  const key = `calc.${m[1]}`;
  const label = tr(lang, key);
  if (label === key || lang === "en") return tr(lang, "calc.error", { r: error });
  return tr(lang, "calc.error.field", { f: label, r: error });
}

/** Buttons that add a piece to a notation field (as typing it would). */
function Picker(props: { lang: Lang; variant: string; pieces: string[]; onPick: (p: string) => void; onClear: () => void; testid: string; flowers?: boolean }) {
  const { lang } = props;
  const label = tr(lang, props.flowers ? "calc.picker.flowers" : "calc.picker");
  return (
    <div class="picker" data-testid={props.testid} role="group" aria-label={label}>
      <span class="muted small">{label}</span>
      <div class="picker-row">
        {props.pieces.map((p) => (
          <button class="pick" data-testid={`pick-${p}`} onClick={() => props.onPick(p)}>
            <PieceView variant={props.variant} piece={p} lang={lang} />
          </button>
        ))}
        <button class="secondary" data-testid={`${props.testid}-clear`} onClick={props.onClear}>
          {tr(lang, props.flowers ? "calc.clear.flowers" : "calc.clear")}
        </button>
      </div>
    </div>
  );
}

const FLAGS = ["kong_replacement", "after_kong_discard", "last_tile", "heavenly", "earthly", "human", "ready_at_deal", "multiple_winners"];

/** The common fields of a mahjong situation as a form; melds and options stay in the JSON. */
function MahjongForm(props: { lang: Lang; value: Situation; onChange: (v: Situation) => void; flags: string[] }) {
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
      <select data-testid={`calc-${key}`} value={text(value[key])} onChange={(e) => {
        const raw = (e.target as HTMLSelectElement).value;
        set(key, raw === "" ? null : Number(raw));
      }}>
        <option value="">—</option>
        {[0, 1, 2, 3].map((n) => <option value={n}>{tr(lang, "calc.seat", { n: n + 1 })}</option>)}
      </select>
    </label>
  );
  const input = (key: string) => (
    <label class="inline">
      {tr(lang, `calc.${key}`)}
      <input data-testid={`calc-${key}`} value={text(value[key])} size={18} onInput={(e) => set(key, (e.target as HTMLInputElement).value)} />
    </label>
  );
  const flags: string[] = Array.isArray(value.flags) ? value.flags.map(text) : [];
  const variant = text(value.variant);
  return (
    <div class="calc-form">
      <div>
        {input("hand")}
        {input("win_tile")}
        {variant === "taixing" ? input("flowers") : null}
        {variant === "jiaxing" && fields(value.options).hun === true ? input("hun") : null}
      </div>
      <Picker
        lang={lang}
        variant={variant}
        pieces={TILE_PICKER}
        testid="hand-picker"
        onPick={(p) => set("hand", `${text(value.hand)}${p}`)}
        onClear={() => set("hand", "")}
      />
      {variant === "taixing" ? (
        <Picker lang={lang} variant="taixing" pieces={FLOWER_PICKER} testid="flower-picker" flowers onPick={(p) => set("flowers", `${text(value.flowers)}${p}`)} onClear={() => set("flowers", "")} />
      ) : null}
      <div>
        {seat("dealer")}
        {seat("winner")}
        <label class="inline">
          {tr(lang, "calc.win_type")}
          <select data-testid="calc-win_type" value={text(value.win_type ?? "self_draw")} onChange={(e) => {
            const how = (e.target as HTMLSelectElement).value;
            const next: Situation = { ...value, win_type: how };
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

function pretty(obj: Situation): string {
  return JSON.stringify(obj, null, 2);
}

export function Calculator(props: { lang: Lang; items: ItemNames }) {
  const { lang } = props;
  const [situationText, setText] = useState(pretty(EXAMPLES.taixing));
  const [result, setResult] = useState<ScoreAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [variants, setVariants] = useState<VariantInfo[]>([]);
  useEffect(() => {
    fetchVariants().then(setVariants, (e) => setError(tr(lang, "lobby.badvariants", { m: failureText(lang, e) })));
  }, []);

  let preview: Situation | null = null;
  try {
    const parsed: unknown = JSON.parse(situationText);
    // the form edits an object; other JSON is sent as typed, for the server to refuse
    preview = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Situation) : null;
  } catch {
    preview = null;
  }
  const variant = text(preview?.variant);

  const go = async () => {
    setError(null);
    setResult(null);
    let r: Response;
    let body: unknown;
    try {
      r = await fetch("/api/score", { method: "POST", body: situationText, headers: { "content-type": "application/json" } });
      body = await r.json();
    } catch (e) {
      setError(tr(lang, "err.network"));
      return;
    }
    const refusal = body as ErrorAnswer;
    if (r.status === 422) setError(refusal.error ?? JSON.stringify(body));
    else if (!r.ok) setError(typeof refusal.detail === "string" ? refusal.detail : r.statusText);
    else setResult(body as ScoreAnswer);
  };

  const info = variants.find((v) => v.name === variant);
  // the picker, the hand and the result mark wild tiles as the table does
  const wilds = calcWilds(preview, info?.options);
  let handPieces: string[] = [];
  try {
    if (preview && variant !== "qinger") handPieces = parsePieces(variant, text(preview.hand));
  } catch {
    handPieces = [];
  }

  // Qing'er: the winner's hand takes the picked cards
  const players = preview && Array.isArray(preview.players) ? (preview.players as unknown[]) : null;
  const winner = typeof preview?.winner === "number" ? preview.winner : null;
  const setWinnerHand = (hand: (old: string) => string) => {
    if (!preview || !players || winner === null) return;
    const next = players.slice();
    const own = fields(next[winner]);
    next[winner] = { ...own, hand: hand(text(own.hand)) };
    setText(pretty({ ...preview, players: next }));
  };

  const calcSeat = (s: number) => tr(lang, "calc.seat", { n: s + 1 });
  const seats = (arr: number[]) => (
    <table class="net">
      <tbody>
        <tr>{arr.map((_, s) => <th>{tr(lang, "calc.seat", { n: s + 1 })}</th>)}</tr>
        <tr>{arr.map((v) => <td class={v >= 0 ? "plus" : "minus"}>{v > 0 ? `+${v}` : v}</td>)}</tr>
      </tbody>
    </table>
  );

  return (
    <Wilds.Provider value={wilds}>
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
          <MahjongForm lang={lang} value={preview} onChange={(v) => setText(pretty(v))} flags={FLAGS} />
        ) : null}
        {preview && variant === "qinger" && players && winner !== null && players[winner] ? (
          <Picker
            lang={lang}
            variant="qinger"
            pieces={CARD_PICKER}
            testid="hand-picker"
            onPick={(p) => setWinnerHand((old) => `${old}${p}`)}
            onClear={() => setWinnerHand(() => "")}
          />
        ) : null}
        {preview && info && info.options.length ? (
          <details class="house-rules" data-testid="calc-options">
            <summary>{tr(lang, "calc.options")}</summary>
            <OptionsForm
              lang={lang}
              variant={variant}
              fields={info.options}
              values={fields(preview.options)}
              skip={["hands", "rounds"]}
              onChange={(k, v) => {
                const options = { ...fields(preview!.options) };
                const field = info.options.find((f) => f.name === k);
                if (field && v === field.default) delete options[k];
                else options[k] = v;
                setText(pretty({ ...preview, options }));
              }}
            />
          </details>
        ) : null}
        <textarea data-testid="calc-input" rows={16} spellcheck={false} value={situationText} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
        {handPieces.length ? <Pieces variant={variant} pieces={handPieces} small lang={lang} buttons /> : null}
        <div>
          <button class="primary" data-testid="calc-go" onClick={go}>
            {tr(lang, "calc.go")}
          </button>
        </div>
      </section>
      {error ? (
        <p class="error" data-testid="calc-error">
          {calcErrorText(lang, error)}
        </p>
      ) : null}
      {result ? (
        <section class="card-panel" data-testid="calc-result">
          {result.valid ? (
            <p class="headline">{tr(lang, "calc.valid")}</p>
          ) : (
            <p class="headline">{tr(lang, "calc.invalid", { r: withSeatNames(lang, calcReason(lang, result.reason), calcSeat) })}</p>
          )}
          {result.valid && result.variant !== "qinger" ? (
            <table class="items">
              <tbody>
                {result.items.map((it) => (
                  <tr>
                    <td>{itemName(props.items, result.variant, it.id, it.name, lang)}</td>
                    <td class="num">{it.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {result.valid && result.variant === "qinger"
            ? result.items.map((row, s) => (
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
          {result.valid ? (
            <div data-testid="calc-explanation">
              <h4>{tr(lang, "calc.explanation")}</h4>
              <Formula lang={lang} steps={result.explanation.formula} seat={calcSeat} />
              {result.explanation.payments.length ? (
                <ul class="payments">
                  {result.explanation.payments.map((p) => (
                    <li>
                      {tr(lang, "settle.pays", { a: tr(lang, "calc.seat", { n: p.payer + 1 }), b: tr(lang, "calc.seat", { n: p.payee + 1 }), v: p.amount })}{" "}
                      <span class="reason">{withSeatNames(lang, lang === "en" ? p.en : p.zh, calcSeat)}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          {result.valid ? (
            <>
              <h4>{tr(lang, "calc.payments")}</h4>
              {seats(result.payments)}
            </>
          ) : null}
          {result.valid && "kong_payments" in result ? (
            <>
              <h4>{tr(lang, "calc.kong")}</h4>
              {seats(result.kong_payments)}
            </>
          ) : null}
        </section>
      ) : null}
    </div>
    </Wilds.Provider>
  );
}
