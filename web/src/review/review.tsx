// 复盘: one player's decisions in a finished game (or an uploaded / pasted record), one by
// one, with the strong bot's choice and the value of each candidate beside the table as that
// seat saw it. The server does the valuing (GET /api/games/{id}/review, POST /api/review).
import { useEffect, useRef, useState } from "preact/hooks";
import { PcButton } from "../pieces";
import type { Lang } from "../i18n";
import { actionLabel } from "../hand";
import type { ItemNames } from "../names";
import { actionPiece, parseAction, parsePieces, sortPieces, withoutOne } from "../notation";
import { EVENT_VERBS } from "../schema/grammar";
import type { ErrorAnswer, GameSeat, RestAnswers, ReviewProgress as ReviewProgressAnswer } from "../schema/server-messages";
import { initialState, type ClientState, type RoomInfo } from "../state";
import type { HandView } from "../view";
import { CenterInfo, PlayerArea } from "../table";
import {
  discardValues,
  formatPoints,
  formatShare,
  indexOf,
  keyStep,
  progressShare,
  progressText,
  rankedCandidates,
  recordSeats,
  seatLabel,
  seatTitle,
  severity,
  swipeStep,
  thresholds,
  type Decision,
  type ReviewDoc,
  type ReviewProgress,
} from "./model";
import { count, rt } from "./text";
import "./review.css";

type Source = { kind: "game"; id: string } | { kind: "record"; text: string };

/** The room the table's components expect, made from the record's seat names. */
export function reviewRoom(doc: Pick<ReviewDoc, "variant" | "seats">, n: number): RoomInfo {
  return {
    code: "",
    variant: doc.variant,
    n_seats: n,
    options: {},
    status: "finished",
    seats: Array.from({ length: n }, (_, i) => {
      const label = seatLabel(doc.seats[i] ?? "");
      return {
        seat: i,
        kind: label.bot ? "bot" : "person",
        level: label.bot,
        name: label.name,
        taken: true,
        connected: true,
        bot_playing: false,
      };
    }),
    timers: {},
    game_id: null,
    spectators: 0,
  } as unknown as RoomInfo;
}

function ActionText(props: { lang: Lang; variant: string; action: string }) {
  const piece = actionPiece(props.action);
  return (
    <span class="rv-action">
      {actionLabel(props.lang, props.action)}
      {piece ? (
        <PcButton variant={props.variant} piece={piece} lang={props.lang} class="inline" />
      ) : null}
    </span>
  );
}

/** The seat's concealed pieces with the bot's value of discarding each drawn under it. */
export function ValuedHand(props: { lang: Lang; variant: string; view: HandView; seat: number; decision: Decision }) {
  const { lang, variant, view, seat, decision } = props;
  const all = parsePieces(variant, view.players[seat]?.hand);
  // the view's hand holds every concealed piece, the drawn one among them: set it apart
  const drawn = view.drawn && all.includes(view.drawn) ? view.drawn : null;
  const pieces = sortPieces(variant, drawn ? withoutOne(all, drawn) : all);
  const values = discardValues(decision);
  // only a discard marks a tile: the grammar's discard word, not a guess at its spelling
  const isDiscard = (action: string) => parseAction(action)?.verb === EVENT_VERBS.discard;
  const chosen = actionPiece(decision.choice);
  const bots = actionPiece(decision.bot);
  const tile = (p: string, extra: string) => {
    const v = values.get(p);
    const cls = [
      "rv-tile",
      extra,
      v ? "valued" : "",
      isDiscard(decision.choice) && p === chosen ? "chosen" : "",
      isDiscard(decision.bot) && p === bots ? "best" : "",
    ]
      .filter(Boolean)
      .join(" ");
    return (
      <li class={cls} data-testid="review-tile" data-piece={p} data-points={v?.points ?? ""}>
        <PcButton variant={variant} piece={p} lang={lang} />
        <span class="rv-val">{v ? formatPoints(v.points) : ""}</span>
      </li>
    );
  };
  // a piece of which the hand holds several carries its value on the first only
  const seen = new Set<string>();
  return (
    <ul class="rv-hand" aria-label={rt(lang, "review.hand")} data-testid="review-hand">
      {pieces.map((p) => {
        const first = !seen.has(p);
        seen.add(p);
        return first ? tile(p, "") : (
          <li class="rv-tile" data-testid="review-tile" data-piece={p}>
            <PcButton variant={variant} piece={p} lang={lang} />
            <span class="rv-val" />
          </li>
        );
      })}
      {drawn ? tile(drawn, "drawn") : null}
    </ul>
  );
}

export function DecisionPanel(props: { lang: Lang; variant: string; decision: Decision }) {
  const { lang, variant, decision: d } = props;
  const sev = severity(d, variant);
  const verdict =
    sev === "ok" ? rt(lang, "review.agree") : sev === "near" ? rt(lang, "review.near") : rt(lang, "review.cost", { v: d.given_up.toFixed(2) });
  return (
    <section class={`rv-decision sev-${sev}`} data-testid="review-decision" aria-live="polite">
      <h3>
        {rt(lang, "review.at", { hand: d.hand, turn: d.turn })} ·{" "}
        <span class={`rv-verdict sev-${sev}`} data-testid="review-verdict">
          {verdict}
        </span>
      </h3>
      <p class="rv-choices">
        <span data-testid="review-choice">
          {rt(lang, "review.played")}
          {rt(lang, "colon")}
          <ActionText lang={lang} variant={variant} action={d.choice} />
        </span>
        <span data-testid="review-bot">
          {rt(lang, "review.bot")}
          {rt(lang, "colon")}
          <ActionText lang={lang} variant={variant} action={d.bot} />
        </span>
      </p>
      {d.candidates.length ? (
        <table class="rv-candidates" data-testid="review-candidates">
          <caption>{rt(lang, "review.candidates")}</caption>
          <thead>
            <tr>
              <th scope="col">{rt(lang, "review.col.action")}</th>
              <th scope="col">{rt(lang, "review.col.points")}</th>
              <th scope="col">{rt(lang, "review.col.win")}</th>
              <th scope="col">{rt(lang, "review.col.dealin")}</th>
            </tr>
          </thead>
          <tbody>
            {rankedCandidates(d).map((c) => (
              <tr class={`${c.action === d.choice ? "chosen" : ""} ${c.action === d.bot ? "best" : ""}`} data-action={c.action}>
                <th scope="row">
                  <ActionText lang={lang} variant={variant} action={c.action} />
                  {c.action === d.bot ? <span class="tag">{rt(lang, "review.bot")}</span> : null}
                  {c.action === d.choice ? <span class="tag">{rt(lang, "review.played")}</span> : null}
                </th>
                <td class="num">{formatPoints(c.points)}</td>
                <td class="num">{formatShare(c.win)}</td>
                <td class="num">{formatShare(c.deal_in)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p class="muted small">{rt(lang, "review.search", { s: rt(lang, `review.search.${d.search}`) })}</p>
    </section>
  );
}

export function Timeline(props: { lang: Lang; doc: ReviewDoc; i: number; go: (i: number) => void }) {
  const { lang, doc, i } = props;
  return (
    <div class="rv-timeline" role="group" aria-label={rt(lang, "review.timeline")} data-testid="review-timeline">
      {doc.decisions.map((d, k) => (
        <button
          class={`rv-mark sev-${severity(d, doc.variant)}${k === i ? " on" : ""}${k > 0 && doc.decisions[k - 1].hand !== d.hand ? " newhand" : ""}`}
          aria-current={k === i ? "step" : undefined}
          aria-label={`${rt(lang, "review.at", { hand: d.hand, turn: d.turn })}: ${sevText(lang, severity(d, doc.variant), doc.variant)}`}
          title={`${rt(lang, "review.at", { hand: d.hand, turn: d.turn })}${d.given_up > 0 ? ` −${d.given_up.toFixed(2)}` : ""}`}
          onClick={() => props.go(k)}
          tabIndex={-1}
        />
      ))}
    </div>
  );
}

export function sevText(lang: Lang, s: string, variant: string): string {
  const t = thresholds(variant);
  const fmt = (v: number) => String(Math.round(v * 100) / 100);
  return rt(lang, `review.sev.${s}`, { a: fmt(t.medium), b: fmt(t.large) });
}

export function Legend(props: { lang: Lang; variant: string }) {
  return (
    <p class="rv-legend">
      {(["ok", "near", "small", "medium", "large"] as const).map((s) => (
        <span>
          <span class={`rv-swatch sev-${s}`} /> {sevText(props.lang, s, props.variant)}
        </span>
      ))}
    </p>
  );
}

/** One review on screen: summary, the costliest decisions, the timeline, the current one. */
export function ReviewView(props: { lang: Lang; doc: ReviewDoc; i: number; go: (i: number) => void; items?: ItemNames }) {
  const { lang, doc, i, go } = props;
  const board = useRef<HTMLDivElement>(null);
  const n = doc.decisions.length;
  const d = doc.decisions[i];

  // The listener reads the step from a ref written at render: an effect re-bound with the
  // new step runs only after the paint, and a key pressed in between would step from the
  // old one.
  const at = useRef({ i, doc, go });
  at.current = { i, doc, go };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const now = at.current;
      const to = keyStep(e.key, now.i, now.doc.decisions);
      if (to === null) return;
      e.preventDefault();
      now.go(to);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    const el = board.current;
    if (!el) return;
    let start: { x: number; y: number; id: number } | null = null;
    const down = (e: PointerEvent) => {
      if (e.pointerType !== "mouse") start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    };
    const up = (e: PointerEvent) => {
      if (!start || start.id !== e.pointerId) return;
      const step = swipeStep(e.clientX - start.x, e.clientY - start.y);
      start = null;
      const now = at.current;
      if (step) now.go(Math.min(now.doc.decisions.length - 1, Math.max(0, now.i + step)));
    };
    const cancel = () => (start = null);
    el.addEventListener("pointerdown", down);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", cancel);
    return () => {
      el.removeEventListener("pointerdown", down);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", cancel);
    };
  }, [doc]); // a new document may bring the board (an empty one has none)

  const who = seatTitle(lang, doc.seats, doc.seat);
  const summary = rt(lang, "review.summary", {
    who,
    hands: count(lang, "hand", doc.hands),
    n: count(lang, "decision", doc.n_decisions),
    agree: formatShare(doc.agreement),
    lost: doc.given_up.toFixed(2),
    per: doc.given_up_per_hand.toFixed(2),
  });
  const worst = doc.mistakes.slice(0, 5);
  if (!n) {
    return (
      <section class="card-panel">
        <p data-testid="review-summary">{summary}</p>
        <p class="muted">{rt(lang, "review.none")}</p>
      </section>
    );
  }
  const view = d.view;
  const seats = view?.players?.length ?? doc.seats.length;
  const room = reviewRoom(doc, seats);
  const state: ClientState | null = view
    ? {
        ...initialState(),
        connected: true,
        room,
        seat: doc.seat,
        game: { turn: i, hand: d.hand - 1, state: view, legal: [], to_act: view.to_act ?? [], timers: [] },
        match: view.match_totals ? { totals: view.match_totals } : null,
      }
    : null;
  return (
    <div class="rv" data-testid="review">
      <section class="card-panel rv-head">
        <p data-testid="review-summary">{summary}</p>
        <h3>{rt(lang, "review.worst")}</h3>
        {worst.length ? (
          <ol class="rv-worst" data-testid="review-worst">
            {worst.map((m) => (
              <li>
                <button class={`link sev-${severity(m, doc.variant)}`} data-testid="review-worst-item" onClick={() => go(indexOf(doc, m))}>
                  {rt(lang, "review.at", { hand: m.hand, turn: m.turn })}
                  {rt(lang, "colon")}
                  <ActionText lang={lang} variant={doc.variant} action={m.choice} /> →{" "}
                  <ActionText lang={lang} variant={doc.variant} action={m.bot} /> −{m.given_up.toFixed(2)}
                </button>
              </li>
            ))}
          </ol>
        ) : (
          <p class="muted">{rt(lang, "review.noworst")}</p>
        )}
        <Timeline lang={lang} doc={doc} i={i} go={go} />
        <Legend lang={lang} variant={doc.variant} />
      </section>
      <div class="rv-controls">
        <button data-testid="review-first" aria-label={rt(lang, "review.first")} onClick={() => go(0)} disabled={i === 0}>
          |◀<span class="rv-word"> {rt(lang, "review.first")}</span>
        </button>
        <button data-testid="review-prev-mistake" aria-label={rt(lang, "review.prevmistake")} onClick={() => go(keyStep("ArrowUp", i, doc.decisions)!)}>
          ⇤<span class="rv-word"> {rt(lang, "review.prevmistake")}</span>
        </button>
        <button data-testid="review-prev" aria-label={rt(lang, "review.prev")} onClick={() => go(Math.max(0, i - 1))} disabled={i === 0}>
          ◀<span class="rv-word"> {rt(lang, "review.prev")}</span>
        </button>
        <span data-testid="review-step" class="rv-step">
          {rt(lang, "review.step", { i: i + 1, n })}
        </span>
        <button data-testid="review-next" aria-label={rt(lang, "review.next")} onClick={() => go(Math.min(n - 1, i + 1))} disabled={i === n - 1}>
          <span class="rv-word">{rt(lang, "review.next")} </span>▶
        </button>
        <button data-testid="review-next-mistake" aria-label={rt(lang, "review.nextmistake")} onClick={() => go(keyStep("ArrowDown", i, doc.decisions)!)}>
          <span class="rv-word">{rt(lang, "review.nextmistake")} </span>⇥
        </button>
        <button data-testid="review-last" aria-label={rt(lang, "review.last")} onClick={() => go(n - 1)} disabled={i === n - 1}>
          <span class="rv-word">{rt(lang, "review.last")} </span>▶|
        </button>
      </div>
      <p class="muted small rv-keys">{rt(lang, "review.keys")}</p>
      <div class="rv-main">
        <DecisionPanel lang={lang} variant={doc.variant} decision={d} />
        <div class="rv-board replay-board" ref={board} data-testid="review-board">
          {state ? (
            <>
              <CenterInfo lang={lang} state={state} />
              {Array.from({ length: seats }, (_, s) =>
                s === doc.seat ? (
                  <PlayerArea lang={lang} state={state} seat={s} side="list" now={0}>
                    <ValuedHand lang={lang} variant={doc.variant} view={view!} seat={s} decision={d} />
                  </PlayerArea>
                ) : (
                  <PlayerArea lang={lang} state={state} seat={s} side="list" now={0} />
                ),
              )}
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** An answer's JSON: the endpoint's own when ``r.ok`` (or 202), else a refusal. A body that
 * is no JSON (a proxy's error page) reads as a refusal naming its first characters. */
async function readJson(r: Response): Promise<unknown> {
  const text = await r.text();
  try {
    return JSON.parse(text);
  } catch {
    const refusal: ErrorAnswer = { detail: text.slice(0, 200) };
    return refusal;
  }
}

function detailOf(body: ErrorAnswer): string {
  const d = body.detail ?? body.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => (typeof x.msg === "string" ? x.msg : JSON.stringify(x))).join("; ");
  return JSON.stringify(body);
}

/** The page: choose what to review (a game of this server by its id, or a record), then
 * whose decisions, then step through them. ``id``/``seat`` come from #/review/ID/SEAT. */
export function ReviewPage(props: { lang: Lang; id: string | null; seat: number | null; items?: ItemNames }) {
  const { lang } = props;
  const [source, setSource] = useState<Source | null>(props.id ? { kind: "game", id: props.id } : null);
  const [names, setNames] = useState<string[] | null>(null);
  const [seat, setSeat] = useState<number | null>(props.seat);
  const [doc, setDoc] = useState<ReviewDoc | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; retry: boolean } | null>(null);
  const [i, setI] = useState(0);
  const [paste, setPaste] = useState("");

  // each run has its number: a page left or a run replaced stops polling the old one
  const runs = useRef(0);
  useEffect(() => () => void (runs.current += 1), []);
  const [progress, setProgress] = useState<ReviewProgress | null>(null);

  useEffect(() => {
    runs.current += 1; // another game or seat: the review under way is not this one's
    setBusy(false);
    setProgress(null);
    setSource(props.id ? { kind: "game", id: props.id } : null);
    setSeat(props.seat);
    setDoc(null);
    setNames(null);
  }, [props.id, props.seat]);

  // the seats of a game of this server
  useEffect(() => {
    if (source?.kind !== "game") return;
    fetch(`/api/games/${encodeURIComponent(source.id)}`)
      .then(async (r) => {
        const body = await readJson(r);
        if (!r.ok) throw new Error(detailOf(body as ErrorAnswer));
        const game = body as RestAnswers["GET /api/games/{game_id}"];
        setNames((game.seats ?? []).map((s: GameSeat) => (s.kind === "bot" ? `bot:${s.level ?? ""}` : String(s.name ?? ""))));
      })
      .catch((e) => setError({ text: String(e.message ?? e), retry: false }));
  }, [source]);

  const run = (src: Source, who: number) => {
    const mine = ++runs.current;
    setBusy(true);
    setError(null);
    setDoc(null);
    setProgress(null);
    // wait=0: the server answers at once (202 with the job's progress) and is polled
    const request =
      src.kind === "game"
        ? fetch(`/api/games/${encodeURIComponent(src.id)}/review?seat=${who}&wait=0`)
        : fetch(`/api/review?seat=${who}&wait=0`, { method: "POST", body: src.text });
    const follow = async (r: Response): Promise<ReviewDoc | null> => {
      const body = await readJson(r);
      if (mine !== runs.current) return null;
      if (r.status === 202) {
        setProgress(body as ReviewProgress);
        await new Promise((ok) => setTimeout(ok, 800));
        if (mine !== runs.current) return null;
        // 202 is the ReviewAnswer | ReviewProgress union's progress, which names its job
        const { job } = body as ReviewProgressAnswer;
        return follow(await fetch(`/api/review/jobs/${encodeURIComponent(String(job))}`));
      }
      if (r.status === 429) {
        setError({ text: rt(lang, "review.busy"), retry: true });
        return null;
      }
      if (!r.ok) throw new Error(detailOf(body as ErrorAnswer));
      // 200: the union's finished review, its decisions' views a hand's (ReviewDoc)
      return body as ReviewDoc;
    };
    request
      .then(follow)
      .then((body) => {
        if (!body) return;
        setDoc(body);
        // open on the costliest decision: that is what a player comes to see
        const worst = body.mistakes[0];
        setI(worst ? Math.max(0, indexOf(body, worst)) : 0);
      })
      .catch((e) => {
        if (mine === runs.current) setError({ text: rt(lang, "review.error", { m: String(e.message ?? e) }), retry: true });
      })
      .finally(() => {
        if (mine === runs.current) setBusy(false);
      });
  };

  useEffect(() => {
    if (source && seat !== null && names && !doc && !busy && !error) run(source, seat);
  }, [source, seat, names]);

  const choose = (who: number) => {
    if (source?.kind === "game") {
      location.hash = `#/review/${encodeURIComponent(source.id)}/${who}`;
    } else if (source) {
      setSeat(who);
      run(source, who);
    }
  };

  const loadRecord = (text: string) => {
    const seats = recordSeats(text);
    setDoc(null);
    setSeat(null);
    if (!seats) {
      setError({ text: rt(lang, "review.badfile"), retry: false });
      return;
    }
    setError(null);
    setSource({ kind: "record", text });
    setNames(seats);
  };

  const picker = (
    <section class="card-panel">
      <h2>{rt(lang, "review.title")}</h2>
      <p class="muted">{rt(lang, "review.intro")}</p>
      {!props.id ? (
        <>
          <label>
            {rt(lang, "review.file")}
            <input
              type="file"
              accept=".jsonl,.json,.txt"
              data-testid="review-file"
              onChange={(e) => {
                const file = (e.target as HTMLInputElement).files?.[0];
                if (file) file.text().then(loadRecord);
              }}
            />
          </label>
          <label>
            {rt(lang, "review.paste")}
            <textarea rows={3} data-testid="review-paste" value={paste} onInput={(e) => setPaste((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button data-testid="review-paste-go" onClick={() => loadRecord(paste)} disabled={!paste.trim()}>
            {rt(lang, "review.paste.go")}
          </button>
        </>
      ) : (
        <p>
          <a href={`#/replay/${encodeURIComponent(props.id)}`} data-testid="review-replay-link">
            {rt(lang, "review.replay")}
          </a>
        </p>
      )}
      {names ? (
        <div class="seat-choices" role="group" aria-label={rt(lang, "review.seat")}>
          <span>
            {rt(lang, "review.seat")}
            {rt(lang, "colon")}
          </span>
          {names.map((_, s) => (
            <button class={`choice${seat === s ? " on" : ""}`} aria-pressed={seat === s} data-testid={`review-seat-${s}`} onClick={() => choose(s)} disabled={busy}>
              {seatTitle(lang, names, s)}
            </button>
          ))}
        </div>
      ) : null}
      {busy ? (
        <div class="rv-busy" role="status" data-testid="review-working">
          <p>{rt(lang, "review.working")}</p>
          <progress
            max={1}
            value={progress?.status === "running" ? progressShare(progress) : undefined}
            aria-label={rt(lang, "review.progress")}
            data-testid="review-progress"
          />{" "}
          <span data-testid="review-progress-text">{progressText(lang, progress)}</span>
        </div>
      ) : null}
      {error ? (
        <p class="error" role="alert" data-testid="review-error">
          {error.text}{" "}
          {error.retry && source && seat !== null ? (
            <button class="link" data-testid="review-retry" onClick={() => run(source, seat)}>
              {rt(lang, "review.retry")}
            </button>
          ) : null}
        </p>
      ) : null}
    </section>
  );
  return (
    <div class="review-page">
      {picker}
      {doc ? <ReviewView lang={lang} doc={doc} i={Math.min(i, Math.max(0, doc.decisions.length - 1))} go={setI} items={props.items} /> : null}
    </div>
  );
}
