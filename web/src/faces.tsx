// Tile and card faces drawn as SVG in code: no third-party artwork, no font-dependent
// tile glyphs (only plain CJK characters, which fonts-wqy-microhei covers).
import { createContext, type ComponentChildren, type JSX } from "preact";
import { useContext } from "preact/hooks";
import type { Piece } from "./notation";

/**
 * The tile kinds that are wild (混儿) in the hand on show: every face of those kinds is
 * marked, wherever it lies (hand, rivers, melds, waits, the settlement).
 */
export const Wilds = createContext<ReadonlySet<string>>(new Set());

/** The wild kinds a view names (Jiaxing with 混儿: ``wild_kinds``). */
export function wildsOf(view: object | null | undefined): ReadonlySet<string> {
  const kinds = view && "wild_kinds" in view ? view.wild_kinds : undefined;
  return new Set(Array.isArray(kinds) ? kinds.map(String) : []);
}

const CJK = "'WenQuanYi Micro Hei','Noto Sans CJK SC','Microsoft YaHei',sans-serif";
const NUMERALS = "一二三四五六七八九";
const HONOURS = "東南西北中發白";
const FLOWERS = "春夏秋冬梅蘭竹菊";
const BLUE = "#1b4f9c";
const GREEN = "#1e7a3c";
const RED = "#c0392b";
const INK = "#1d1d1d";

/** The Chinese (or English) name of a mahjong tile; cards are named by <Card> itself. */
export function pieceName(p: Piece, lang: "zh" | "en" = "zh"): string {
  const suit = p[1];
  const n = Number(p[0]);
  if (p === "BJ") return lang === "en" ? "big joker" : "大鬼";
  if (p === "SJ") return lang === "en" ? "small joker" : "小鬼";
  if (p === "AD") return lang === "en" ? "advert card" : "广告";
  if (suit === "m") return lang === "en" ? `${n} characters` : `${NUMERALS[n - 1]}万`;
  if (suit === "p") return lang === "en" ? `${n} dots` : `${NUMERALS[n - 1]}筒`;
  if (suit === "s") return lang === "en" ? `${n} bamboo` : `${NUMERALS[n - 1]}索`;
  if (suit === "z") return lang === "en" ? HONOURS_EN[n - 1] : HONOURS[n - 1];
  if (suit === "f") return lang === "en" ? FLOWERS_EN[n - 1] : FLOWERS[n - 1];
  return p;
}

const HONOURS_EN = ["East wind", "South wind", "West wind", "North wind", "Red dragon", "Green dragon", "White dragon"];
const FLOWERS_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo flower", "Chrysanthemum"];

/** The name of a piece of ``variant`` in ``lang`` (五万, 红桃7, 大鬼): the accessible name. */
export function anyPieceName(variant: string | undefined, p: Piece, lang: "zh" | "en" = "zh"): string {
  return variant === "qinger" ? cardName(p, lang) : pieceName(p, lang);
}

type Face = { piece: Piece; class?: string; title?: string; wild?: boolean };

/**
 * True inside a control that is named itself (a tile button): the face is then hidden from
 * screen readers so the name is read once, not once for the button and once for the image.
 */
export const Decorative = createContext(false);

function Frame(props: { children: ComponentChildren; piece: Piece; kind: string; cls?: string; title?: string; w: number; h: number }) {
  const decorative = useContext(Decorative);
  return (
    <svg
      class={`piece ${props.kind} ${props.cls ?? ""}`}
      viewBox={`0 0 ${props.w} ${props.h}`}
      data-piece={props.piece}
      role={decorative ? undefined : "img"}
      aria-label={props.title ?? props.piece}
      aria-hidden={decorative ? "true" : undefined}
    >
      {props.children}
    </svg>
  );
}

// -- mahjong tiles (viewBox 48×64) ----------------------------------------------------------

const DOTS: Record<number, [number, number][]> = {
  2: [[24, 18], [24, 46]],
  3: [[12, 14], [24, 32], [36, 50]],
  4: [[14, 18], [34, 18], [14, 46], [34, 46]],
  5: [[13, 15], [35, 15], [24, 32], [13, 49], [35, 49]],
  6: [[15, 14], [33, 14], [15, 32], [33, 32], [15, 50], [33, 50]],
  7: [[11, 11], [24, 16], [37, 21], [15, 37], [33, 37], [15, 52], [33, 52]],
  8: [[15, 11], [33, 11], [15, 25], [33, 25], [15, 39], [33, 39], [15, 53], [33, 53]],
  9: [[11, 14], [24, 14], [37, 14], [11, 32], [24, 32], [37, 32], [11, 50], [24, 50], [37, 50]],
};
const DOT_R: Record<number, number> = { 2: 9, 3: 7, 4: 8, 5: 7, 6: 7, 7: 6, 8: 6, 9: 6 };

function dotColour(n: number, i: number): string {
  if (n === 3) return [BLUE, RED, GREEN][i];
  if (n === 5) return i === 2 ? RED : i % 3 === 0 ? BLUE : GREEN;
  if (n === 7) return i < 3 ? GREEN : RED;
  if (n === 9) return [BLUE, RED, GREEN][Math.floor(i / 3)];
  return i % 2 === 0 ? BLUE : GREEN;
}

function Dot(props: { x: number; y: number; r: number; c: string }) {
  return (
    <g>
      <circle cx={props.x} cy={props.y} r={props.r} fill={props.c} />
      <circle cx={props.x} cy={props.y} r={props.r * 0.68} fill="#fdfbf3" />
      <circle cx={props.x} cy={props.y} r={props.r * 0.4} fill={props.c} />
    </g>
  );
}

function DotsFace({ n }: { n: number }) {
  if (n === 1) {
    return (
      <g>
        <circle cx={24} cy={32} r={16} fill={GREEN} />
        <circle cx={24} cy={32} r={12.5} fill="#fdfbf3" />
        <circle cx={24} cy={32} r={9} fill={RED} />
        <circle cx={24} cy={32} r={4} fill="#fdfbf3" />
        {[0, 45, 90, 135, 180, 225, 270, 315].map((a) => (
          <circle cx={24 + 10.7 * Math.cos((a * Math.PI) / 180)} cy={32 + 10.7 * Math.sin((a * Math.PI) / 180)} r={1.2} fill={BLUE} />
        ))}
      </g>
    );
  }
  return <g>{DOTS[n].map(([x, y], i) => <Dot x={x} y={y} r={DOT_R[n]} c={dotColour(n, i)} />)}</g>;
}

function Stick(props: { x: number; y: number; h?: number; c?: string }) {
  const h = props.h ?? 14;
  const c = props.c ?? GREEN;
  return (
    <g>
      <rect x={props.x - 3} y={props.y - h / 2} width={6} height={h} rx={3} fill={c} />
      <line x1={props.x - 3} x2={props.x + 3} y1={props.y} y2={props.y} stroke="#fdfbf3" stroke-width={1} />
      <line x1={props.x} x2={props.x} y1={props.y - h / 2 + 2} y2={props.y + h / 2 - 2} stroke="#fdfbf3" stroke-width={0.7} opacity={0.6} />
    </g>
  );
}

const STICKS: Record<number, [number, number, string?][]> = {
  2: [[24, 19], [24, 45]],
  3: [[24, 19], [15, 45], [33, 45]],
  4: [[15, 19], [33, 19], [15, 45], [33, 45]],
  5: [[13, 19], [35, 19], [24, 32, RED], [13, 45], [35, 45]],
  6: [[12, 19], [24, 19], [36, 19], [12, 45], [24, 45], [36, 45]],
  7: [[24, 12, RED], [12, 32], [24, 32], [36, 32], [12, 52], [24, 52], [36, 52]],
  8: [[9, 19], [19, 19], [29, 19], [39, 19], [9, 45], [19, 45], [29, 45], [39, 45]],
  9: [[12, 12, RED], [24, 12, BLUE], [36, 12, RED], [12, 32, RED], [24, 32, BLUE], [36, 32, RED], [12, 52, RED], [24, 52, BLUE], [36, 52, RED]],
};

function Bird() {
  // 一索 is traditionally a bird; a simple one from ellipses and a fan of tail feathers
  return (
    <g>
      {[-40, -20, 0, 20].map((a) => (
        <ellipse cx={15} cy={40} rx={4} ry={13} fill={a % 40 === 0 ? GREEN : RED} transform={`rotate(${a - 30} 22 44)`} />
      ))}
      <ellipse cx={27} cy={36} rx={10} ry={8} fill={GREEN} />
      <circle cx={33} cy={23} r={6} fill={RED} />
      <circle cx={35} cy={22} r={1.4} fill="#fdfbf3" />
      <polygon points="38,23 44,25 38,27" fill="#d68910" />
      <line x1={25} y1={44} x2={23} y2={54} stroke={INK} stroke-width={1.5} />
      <line x1={30} y1={44} x2={31} y2={54} stroke={INK} stroke-width={1.5} />
    </g>
  );
}

function BambooFace({ n }: { n: number }) {
  if (n === 1) return <Bird />;
  const h = n >= 7 ? 15 : 20;
  return <g>{STICKS[n].map(([x, y, c]) => <Stick x={x} y={y} h={h} c={c} />)}</g>;
}

function CharacterFace({ n }: { n: number }) {
  return (
    <g font-family={CJK} text-anchor="middle">
      <text x={24} y={27} font-size={22} fill={INK} font-weight="bold">{NUMERALS[n - 1]}</text>
      <text x={24} y={56} font-size={24} fill={RED}>萬</text>
    </g>
  );
}

function HonourFace({ n }: { n: number }) {
  if (n === 7) {
    return <rect x={10} y={12} width={28} height={40} rx={3} fill="none" stroke={BLUE} stroke-width={3.5} />;
  }
  const colour = n === 5 ? RED : n === 6 ? GREEN : INK;
  return (
    <text x={24} y={44} font-family={CJK} font-size={32} text-anchor="middle" fill={colour} font-weight="bold">
      {HONOURS[n - 1]}
    </text>
  );
}

function Motif({ n }: { n: number }) {
  // seasons get a sun-like mark in their colour; the four plants a small drawing each
  const x = 34;
  const y = 16;
  if (n === 5) {
    return (
      <g>
        {[0, 72, 144, 216, 288].map((a) => (
          <circle cx={x + 5 * Math.cos((a * Math.PI) / 180)} cy={y + 5 * Math.sin((a * Math.PI) / 180)} r={3.2} fill="#e8a0b4" />
        ))}
        <circle cx={x} cy={y} r={1.8} fill="#d68910" />
      </g>
    );
  }
  if (n === 6) {
    return (
      <g fill="none" stroke={GREEN} stroke-width={1.6}>
        <path d={`M${x - 8},${y + 8} Q${x - 2},${y - 2} ${x + 8},${y - 8}`} />
        <path d={`M${x - 6},${y + 9} Q${x},${y + 2} ${x + 9},${y + 1}`} />
        <circle cx={x + 5} cy={y - 3} r={2.2} fill="#8e44ad" stroke="none" />
      </g>
    );
  }
  if (n === 7) {
    return (
      <g>
        <rect x={x - 1.5} y={y - 9} width={3} height={18} rx={1.5} fill={GREEN} />
        <line x1={x - 1.5} x2={x + 1.5} y1={y - 2} y2={y - 2} stroke="#fdfbf3" />
        <path d={`M${x + 1},${y - 4} l7,-4 l-6,6 z`} fill={GREEN} />
        <path d={`M${x - 1},${y + 3} l-7,-3 l6,5 z`} fill={GREEN} />
      </g>
    );
  }
  if (n === 8) {
    return (
      <g>
        {Array.from({ length: 10 }, (_, i) => (
          <ellipse cx={x} cy={y - 4.5} rx={1.6} ry={4.5} fill="#e6b800" transform={`rotate(${i * 36} ${x} ${y})`} />
        ))}
        <circle cx={x} cy={y} r={2.2} fill="#b9770e" />
      </g>
    );
  }
  const colours = ["#27ae60", RED, "#d68910", BLUE];
  return (
    <g>
      <circle cx={x} cy={y} r={5} fill={colours[n - 1]} />
      {Array.from({ length: 8 }, (_, i) => (
        <line x1={x} y1={y} x2={x + 8.5 * Math.cos((i * Math.PI) / 4)} y2={y + 8.5 * Math.sin((i * Math.PI) / 4)} stroke={colours[n - 1]} stroke-width={1.2} />
      ))}
    </g>
  );
}

function FlowerFace({ n }: { n: number }) {
  const colour = n <= 4 ? ["#27ae60", RED, "#b9770e", BLUE][n - 1] : ["#c2185b", "#6c3483", GREEN, "#b9770e"][n - 5];
  return (
    <g>
      <text x={7} y={13} font-size={10} fill={colour} font-family="sans-serif" font-weight="bold">{((n - 1) % 4) + 1}</text>
      <Motif n={n} />
      <text x={24} y={54} font-family={CJK} font-size={24} text-anchor="middle" fill={colour} font-weight="bold">
        {FLOWERS[n - 1]}
      </text>
    </g>
  );
}

export function Tile(props: Face) {
  const p = props.piece;
  const n = Number(p[0]);
  const suit = p[1];
  let inner: JSX.Element | null = null;
  if (suit === "m") inner = <CharacterFace n={n} />;
  else if (suit === "p") inner = <DotsFace n={n} />;
  else if (suit === "s") inner = <BambooFace n={n} />;
  else if (suit === "z") inner = <HonourFace n={n} />;
  else if (suit === "f") inner = <FlowerFace n={n} />;
  return (
    <Frame piece={p} kind="tile" cls={props.class} title={props.title ?? pieceName(p)} w={48} h={64}>
      <rect x={0.5} y={0.5} width={47} height={63} rx={5} fill="#d9cfae" />
      <rect x={1} y={0.5} width={46} height={61} rx={5} fill="#fdfbf3" stroke="#b8ad8a" stroke-width={0.8} />
      {inner ?? <g />}
      {props.wild ? (
        <g class="wild-mark">
          <path d="M28 1 H42 A5 5 0 0 1 47 6 V20 Z" fill="#f5c542" stroke="#b8860b" stroke-width={0.6} />
          <text x={41.5} y={11} font-family={CJK} font-size={9} text-anchor="middle" fill="#7a1f12" font-weight="bold">
            混
          </text>
        </g>
      ) : null}
    </Frame>
  );
}

export function TileBack(props: { class?: string }) {
  return (
    <Frame piece="back" kind="tile back" cls={props.class} title="?" w={48} h={64}>
      <rect x={0.5} y={0.5} width={47} height={63} rx={5} fill="#d9cfae" />
      <rect x={1} y={0.5} width={46} height={61} rx={5} fill="#2e7d5b" stroke="#1e5a40" />
      <rect x={6} y={6} width={36} height={50} rx={3} fill="none" stroke="#8fcfb0" stroke-width={1} opacity={0.6} />
    </Frame>
  );
}

const CARD_SUITS: Record<string, [string, string]> = { s: ["黑桃", "spades"], h: ["红桃", "hearts"], c: ["草花", "clubs"] };

/** "7h" → "红桃7" / "7 of hearts"; the jokers and the advert card by name. */
export function cardName(p: Piece, lang: "zh" | "en" = "zh"): string {
  if (p === "BJ" || p === "SJ" || p === "AD") return pieceName(p, lang);
  const suit = CARD_SUITS[p[1]];
  if (!suit) return p;
  return lang === "en" ? `${p[0]} of ${suit[1]}` : `${suit[0]}${p[0]}`;
}

// -- cards (viewBox 50×70) ------------------------------------------------------------------

const SUIT_PATH: Record<string, string> = {
  h: "M0,6 C-12,-3 -10,-13 -5,-13 C-2,-13 0,-11 0,-9 C0,-11 2,-13 5,-13 C10,-13 12,-3 0,6 Z",
  s: "M0,-13 C-12,-3 -10,6 -5,6 C-2.5,6 -1,4.5 -0.6,3 L-3,10 L3,10 L0.6,3 C1,4.5 2.5,6 5,6 C10,6 12,-3 0,-13 Z",
  c: "M-1.2,1 C-3,5 -7,6 -8,4 C-11,0 -8,-4 -4,-3 C-7,-6 -5,-12 0,-12 C5,-12 7,-6 4,-3 C8,-4 11,0 8,4 C7,6 3,5 1.2,1 L3,10 L-3,10 Z",
};

function Suit(props: { suit: string; x: number; y: number; scale: number }) {
  return (
    <path
      d={SUIT_PATH[props.suit]}
      fill={props.suit === "h" ? RED : INK}
      transform={`translate(${props.x} ${props.y}) scale(${props.scale})`}
    />
  );
}

function Crown(props: { x: number; y: number; colour: string; small?: boolean }) {
  const w = props.small ? 12 : 16;
  const { x, y } = props;
  return (
    <path
      d={`M${x - w / 2},${y} L${x - w / 2},${y - 8} L${x - w / 4},${y - 4} L${x},${y - 10} L${x + w / 4},${y - 4} L${x + w / 2},${y - 8} L${x + w / 2},${y} Z`}
      fill="#f1c40f"
      stroke={props.colour}
      stroke-width={0.8}
    />
  );
}

function CardFrame(props: { piece: Piece; cls?: string; title?: string; children: ComponentChildren }) {
  return (
    <Frame piece={props.piece} kind="card" cls={props.cls} title={props.title} w={50} h={70}>
      <rect x={0.5} y={0.5} width={49} height={69} rx={4} fill="#fff" stroke="#9a9a9a" />
      {props.children}
    </Frame>
  );
}

function Joker(props: { piece: Piece; big: boolean; cls?: string }) {
  const colour = props.big ? RED : INK;
  return (
    <CardFrame piece={props.piece} cls={props.cls} title={props.big ? "大鬼" : "小鬼"}>
      <polygon
        points="25,9 28,17 36,17 30,22 32,30 25,25 18,30 20,22 14,17 22,17"
        fill={props.big ? "#f1c40f" : "#bdc3c7"}
        stroke={colour}
        stroke-width={0.8}
      />
      <text x={25} y={47} font-family={CJK} font-size={15} text-anchor="middle" fill={colour} font-weight="bold">
        {props.big ? "大" : "小"}
      </text>
      <text x={25} y={64} font-family={CJK} font-size={15} text-anchor="middle" fill={colour} font-weight="bold">鬼</text>
      <text x={4} y={12} font-size={8} fill={colour} font-family="sans-serif" font-weight="bold">{props.big ? "★" : "☆"}</text>
    </CardFrame>
  );
}

function Advert(props: { cls?: string }) {
  return (
    <CardFrame piece="AD" cls={props.cls} title="广告">
      <rect x={5} y={6} width={40} height={58} rx={3} fill="#fef5e7" stroke="#e67e22" />
      <path d="M8,22 L42,14 L42,30 L8,30 Z" fill="#e67e22" />
      <text x={25} y={27} font-family="sans-serif" font-size={7.5} text-anchor="middle" fill="#fff" font-weight="bold">paiju</text>
      <text x={25} y={50} font-family={CJK} font-size={14} text-anchor="middle" fill="#a04000" font-weight="bold">广告</text>
      <line x1={10} y1={56} x2={40} y2={56} stroke="#e67e22" stroke-dasharray="2 2" />
    </CardFrame>
  );
}

export function Card(props: Face) {
  const p = props.piece;
  if (p === "BJ" || p === "SJ") return <Joker piece={p} big={p === "BJ"} cls={props.class} />;
  if (p === "AD") return <Advert cls={props.class} />;
  const rank = p[0];
  const suit = p[1];
  const colour = suit === "h" ? RED : INK;
  const face = "JQK".includes(rank);
  return (
    <CardFrame piece={p} cls={props.class} title={props.title ?? cardName(p)}>
      <text x={5} y={14} font-family="sans-serif" font-size={12} font-weight="bold" fill={colour}>{rank}</text>
      <Suit suit={suit} x={9} y={22} scale={0.35} />
      {face ? (
        <g>
          <rect x={14} y={12} width={31} height={46} rx={3} fill={suit === "h" ? "#fdecea" : "#eaf2e3"} stroke={colour} stroke-width={0.8} />
          {rank === "J" ? (
            <path d="M22,30 L29,22 L38,27 L31,32 Z" fill="#2980b9" stroke={colour} stroke-width={0.6} />
          ) : (
            <Crown x={29.5} y={31} colour={colour} small={rank === "Q"} />
          )}
          <text x={29.5} y={53} font-family="serif" font-size={20} text-anchor="middle" font-weight="bold" fill={colour}>{rank}</text>
        </g>
      ) : (
        <g>
          <Suit suit={suit} x={29} y={40} scale={1.05} />
          <text x={44} y={64} font-family="sans-serif" font-size={12} font-weight="bold" text-anchor="end" fill={colour}>{rank}</text>
        </g>
      )}
    </CardFrame>
  );
}

export function CardBack(props: { class?: string }) {
  return (
    <Frame piece="back" kind="card back" cls={props.class} title="?" w={50} h={70}>
      <rect x={0.5} y={0.5} width={49} height={69} rx={4} fill="#fff" stroke="#9a9a9a" />
      <rect x={4} y={4} width={42} height={62} rx={3} fill="#8e2b2b" />
      <path d="M4,4 L46,66 M46,4 L4,66" stroke="#d98c8c" stroke-width={0.8} />
      <rect x={14} y={24} width={22} height={22} fill="#8e2b2b" stroke="#f5d76e" transform="rotate(45 25 35)" />
    </Frame>
  );
}

export function PieceView(props: { variant: string | undefined; piece: Piece; class?: string; lang?: "zh" | "en" }) {
  const wilds = useContext(Wilds);
  const lang = props.lang ?? "zh";
  const title = anyPieceName(props.variant, props.piece, lang);
  if (props.variant === "qinger") return <Card piece={props.piece} class={props.class} title={title} />;
  const wild = wilds.has(props.piece);
  return (
    <Tile
      piece={props.piece}
      class={wild ? `${props.class ?? ""} wild`.trim() : props.class}
      title={wild ? `${title}${lang === "en" ? " (wild)" : "（混儿）"}` : title}
      wild={wild}
    />
  );
}

export function BackView(props: { variant: string | undefined; class?: string }) {
  return props.variant === "qinger" ? <CardBack class={props.class} /> : <TileBack class={props.class} />;
}
