// Rows of tiles or cards, and melds with the seat that fed them.
import { BackView, PieceView } from "./faces";
import { tr, type Lang } from "./i18n";
import { isCardVariant, mahjongMeldTiles, parseCards, type Piece } from "./notation";
import type { Json } from "./state";

export function Pieces(props: {
  variant: string;
  pieces: Piece[];
  lang?: Lang;
  small?: boolean;
  testid?: string;
  /** Index of a piece to mark (the last discard). */
  mark?: number;
  label?: string;
}) {
  return (
    <span class={props.small ? "pieces small" : "pieces"} role={props.label ? "list" : undefined} aria-label={props.label}>
      {props.pieces.map((p, i) => (
        <span
          class={i === props.mark ? "pc last" : "pc"}
          data-testid={i === props.mark ? "last-discard" : props.testid}
          data-p={p}
          role={props.label ? "listitem" : undefined}
        >
          <PieceView variant={props.variant} piece={p} lang={props.lang} />
        </span>
      ))}
    </span>
  );
}

/** Where a meld came from, seen from ``owner``: 上家 / 对家 / 下家 (or the seat's number). */
export function sourceLabel(lang: Lang, owner: number, source: number, n: number): string {
  const k = (source - owner + n) % n;
  if (n === 4) return tr(lang, ["", "src.next", "src.across", "src.prev"][k] || "src.self");
  if (n === 3) return tr(lang, ["", "src.next", "src.prev"][k] || "src.self");
  return tr(lang, "seat.n", { n: source + 1 });
}

export function Melds(props: {
  variant: string;
  melds: Json[];
  lang: Lang;
  small?: boolean;
  owner?: number;
  n?: number;
  seatLabel?: (seat: number) => string;
}) {
  const { variant, lang } = props;
  if (!props.melds?.length) return null;
  return (
    <span class="melds">
      {props.melds.map((m) => {
        const src: number | null | undefined = m.from;
        const fed = typeof src === "number" && props.owner !== undefined && src !== props.owner;
        const who = fed && props.seatLabel ? props.seatLabel(src) : "";
        const title = `${tr(lang, `meld.${m.type}`)}${fed ? ` · ${tr(lang, "meld.from", { who })}` : ""}`;
        const tag = fed ? (
          <span class="src" data-testid="meld-source" title={title}>
            {sourceLabel(lang, props.owner!, src, props.n ?? 4)}
          </span>
        ) : null;
        if (isCardVariant(variant)) {
          return (
            <span class={`meld ${m.type}`} title={title} aria-label={title}>
              <Pieces variant={variant} pieces={parseCards(m.cards)} small={props.small} lang={lang} />
              {tag}
            </span>
          );
        }
        const tiles = mahjongMeldTiles(m.type, m.tile);
        return (
          <span class={`meld ${m.type}`} title={title} aria-label={title}>
            <span class={props.small ? "pieces small" : "pieces"}>
              {tiles.map((p, i) => (
                <span class="pc" data-p={p}>
                  {m.type === "concealed_kong" && (i === 0 || i === 3) ? (
                    <BackView variant={variant} />
                  ) : (
                    <PieceView variant={variant} piece={p} lang={lang} />
                  )}
                </span>
              ))}
            </span>
            {tag}
          </span>
        );
      })}
    </span>
  );
}
