// Rows of tiles or cards, and melds with the seat that fed them.
import { useContext } from "preact/hooks";
import { anyPieceName, BackView, Decorative, PieceView, Wilds } from "./faces";
import { tr, type Lang } from "./i18n";
import { isCardVariant, mahjongMeldTiles, parseCards, type Piece } from "./notation";
import type { MeldView } from "./view";

/**
 * One tile or card lying on the table, as a button named in the page's language (五万,
 * 红桃7, 大鬼): pressing it (tap, Enter, Space) marks every visible copy through the board's
 * click handler, which finds it by ``data-p``.
 */
export function PcButton(props: {
  variant: string;
  piece: Piece;
  lang?: Lang;
  class?: string;
  testid?: string;
  /** Draw the back (a concealed kong's outer tiles); the name stays the tile's. */
  back?: boolean;
}) {
  const wilds = useContext(Wilds);
  const lang = props.lang ?? "zh";
  const wild = wilds.has(props.piece) ? ` · ${tr(lang, "table.wild")}` : "";
  return (
    <button
      type="button"
      class={props.class ? `pc ${props.class}` : "pc"}
      data-testid={props.testid}
      data-p={props.piece}
      aria-label={anyPieceName(props.variant, props.piece, lang) + wild}
    >
      <Decorative.Provider value={true}>
        {props.back ? <BackView variant={props.variant} /> : <PieceView variant={props.variant} piece={props.piece} lang={lang} />}
      </Decorative.Provider>
    </button>
  );
}

export function Pieces(props: {
  variant: string;
  pieces: Piece[];
  lang?: Lang;
  small?: boolean;
  testid?: string;
  /** Index of a piece to mark (the last discard). */
  mark?: number;
  label?: string;
  /** Pieces on the table are buttons (see PcButton); elsewhere they are named images. */
  buttons?: boolean;
}) {
  const list = !!props.label;
  return (
    <span class={props.small ? "pieces small" : "pieces"} role={list ? "list" : undefined} aria-label={props.label}>
      {props.pieces.map((p, i) => {
        const cls = i === props.mark ? "pc last" : "pc";
        const testid = i === props.mark ? "last-discard" : props.testid;
        if (props.buttons) {
          const b = <PcButton variant={props.variant} piece={p} lang={props.lang} class={i === props.mark ? "last" : undefined} testid={testid} />;
          // a button can't also be the list item: the item wraps it without changing the row
          return list ? (
            <span class="pcw" role="listitem">
              {b}
            </span>
          ) : (
            b
          );
        }
        return (
          <span class={cls} data-testid={testid} data-p={p} role={list ? "listitem" : undefined}>
            <PieceView variant={props.variant} piece={p} lang={props.lang} />
          </span>
        );
      })}
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
  melds: ReadonlyArray<MeldView>;
  lang: Lang;
  small?: boolean;
  owner?: number;
  n?: number;
  seatLabel?: (seat: number) => string;
  /** Tiles and cards as buttons (on the table). */
  buttons?: boolean;
}) {
  const { variant, lang } = props;
  if (!props.melds?.length) return null;
  return (
    <span class="melds">
      {props.melds.map((m) => {
        const src = m.from;
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
              <Pieces variant={variant} pieces={parseCards("cards" in m ? m.cards : "")} small={props.small} lang={lang} buttons={props.buttons} />
              {tag}
            </span>
          );
        }
        const tiles = mahjongMeldTiles(m.type, "tile" in m ? m.tile : "");
        return (
          <span class={`meld ${m.type}`} title={title} aria-label={title}>
            <span class={props.small ? "pieces small" : "pieces"}>
              {tiles.map((p, i) => {
                const back = m.type === "concealed_kong" && (i === 0 || i === 3);
                return props.buttons ? (
                  <PcButton variant={variant} piece={p} lang={lang} back={back} />
                ) : (
                  <span class="pc" data-p={p}>
                    {back ? <BackView variant={variant} /> : <PieceView variant={variant} piece={p} lang={lang} />}
                  </span>
                );
              })}
            </span>
            {tag}
          </span>
        );
      })}
    </span>
  );
}
