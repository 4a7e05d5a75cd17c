// The 验证 panel: the room's commitment from before the deal, this client's seed, and at the
// match's end the revealed server seed and the browser's own check of it (src/fair.ts).
import { useEffect, useState } from "preact/hooks";
import { checkFairDeal, type FairCheck, type RecordLine } from "./fair";
import { failureText, tr, type Lang } from "./i18n";
import { savedSeed } from "./socket";
import type { ClientState } from "./state";

function short(hex: string | undefined): string {
  return hex ? `${hex.slice(0, 12)}…${hex.slice(-6)}` : "—";
}

async function fetchRecord(url: string): Promise<RecordLine[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.text())
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** A check's step in the page's language ("wall 2 of hand 1" → 第 1 局的第 2 副牌墙). */
export function stepText(lang: Lang, what: string): string {
  const wall = /^wall (\d+) of hand (\d+)$/.exec(what);
  if (wall) return tr(lang, "fair.step.wall", { w: wall[1], h: wall[2] });
  const line = /^record line (\d+)$/.exec(what);
  if (line) return tr(lang, "fair.step.line", { n: line[1] });
  const key = `fair.step.${what}`;
  const text = tr(lang, key);
  return text === key ? what : text;
}

export function FairPanel(props: { lang: Lang; state: ClientState }) {
  const { lang, state } = props;
  const shown = state.fairShown;
  const reveal = state.matchEnd?.fair ?? null;
  const recordUrl = state.matchEnd?.record;
  const code: string | undefined = state.room?.code;
  const mySeed = code ? savedSeed(code) : null;
  const [result, setResult] = useState<FairCheck | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    setResult(null);
    setFailure(null);
    if (!reveal || !shown || !recordUrl) return;
    let live = true;
    const seat = state.seat;
    // the seat's seed is checked only if this browser remembers sending one
    const mine = seat !== null && mySeed !== null ? mySeed : null;
    fetchRecord(recordUrl)
      .then((record) => checkFairDeal(shown, reveal, mine === null ? null : seat, mine, record))
      .then((r) => live && setResult(r))
      .catch((e) => live && setFailure(failureText(lang, e)));
    return () => {
      live = false;
    };
  }, [reveal?.server_seed]);
  if (!shown) return null;
  const failed = result?.steps.find((s) => !s.ok);
  return (
    <details class="fair-panel" data-testid="fair-panel">
      <summary>
        {tr(lang, "fair.title")}
        {result ? (result.ok ? ` ✓ ${tr(lang, "fair.passed")}` : ` ✗ ${tr(lang, "fair.failed")}`) : ""}
      </summary>
      <dl>
        <dt>{tr(lang, "fair.commitment")}</dt>
        <dd title={shown.commitment} data-testid="fair-commitment">
          {short(shown.commitment)}
        </dd>
        <dt>{tr(lang, "fair.myseed")}</dt>
        <dd data-testid="fair-myseed">{mySeed ?? "—"}</dd>
        <dt>{tr(lang, "fair.reveal")}</dt>
        <dd title={reveal?.server_seed} data-testid="fair-reveal">
          {reveal ? short(reveal.server_seed) : tr(lang, "fair.atend")}
        </dd>
      </dl>
      {result ? (
        <p data-testid="fair-result" class={result.ok ? "ok" : "bad"}>
          {result.ok
            ? tr(lang, "fair.ok", { n: result.walls })
            : tr(lang, "fair.bad", { what: stepText(lang, failed?.what ?? "?") })}
        </p>
      ) : failure ? (
        <p class="bad">{tr(lang, "fair.error", { m: failure })}</p>
      ) : reveal ? (
        <p>{tr(lang, "fair.checking")}</p>
      ) : null}
      <p class="hint">{tr(lang, "fair.about")}</p>
    </details>
  );
}
