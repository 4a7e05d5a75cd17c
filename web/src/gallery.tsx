// Every tile and card face, for checking the drawings (and for players new to a set).
import { Card, CardBack, cardName, pieceName, Tile, TileBack } from "./faces";
import { tr, type Lang } from "./i18n";

const TILES = ["m", "p", "s"].flatMap((suit) => Array.from({ length: 9 }, (_, i) => `${i + 1}${suit}`));
const HONOURS = Array.from({ length: 7 }, (_, i) => `${i + 1}z`);
const FLOWERS = Array.from({ length: 8 }, (_, i) => `${i + 1}f`);
const CARDS = ["s", "h", "c"].flatMap((suit) => Array.from({ length: 9 }, (_, i) => `${i + 1}${suit}`));
const SPECIAL = ["Jh", "Qh", "Kh", "Jc", "Qc", "Kc", "BJ", "SJ", "AD"];

export function Gallery(props: { lang: Lang }) {
  const { lang } = props;
  const tile = (p: string) => (
    <figure class="face" data-testid="face">
      <Tile piece={p} />
      <figcaption>{pieceName(p, lang)}</figcaption>
    </figure>
  );
  const card = (p: string) => (
    <figure class="face" data-testid="face">
      <Card piece={p} />
      <figcaption>{cardName(p, lang)}</figcaption>
    </figure>
  );
  return (
    <div class="gallery card-panel">
      <h2>{tr(lang, "nav.faces")}</h2>
      <h3>{tr(lang, "variant.jiaxing")} / {tr(lang, "variant.taixing")}</h3>
      <div class="faces">{TILES.map(tile)}</div>
      <div class="faces">
        {HONOURS.map(tile)}
        {FLOWERS.map(tile)}
        <figure class="face">
          <TileBack />
        </figure>
      </div>
      <h3>{tr(lang, "variant.qinger")}</h3>
      <div class="faces">{CARDS.map(card)}</div>
      <div class="faces">
        {SPECIAL.map(card)}
        <figure class="face">
          <CardBack />
        </figure>
      </div>
    </div>
  );
}
