import { describe, expect, it } from "vitest";
import { Card, cardName, pieceName, Tile } from "../src/faces";
import { itemName } from "../src/names";

describe("faces", () => {
  it("names tiles and cards in both languages", () => {
    expect(pieceName("5m")).toBe("五万");
    expect(pieceName("7p", "en")).toBe("7 dots");
    expect(pieceName("5z")).toBe("中");
    expect(pieceName("8f")).toBe("菊");
    expect(cardName("7h")).toBe("红桃7");
    expect(cardName("Kc", "en")).toBe("K of clubs");
    expect(cardName("BJ")).toBe("大鬼");
    expect(cardName("AD")).toBe("广告");
  });
  it("builds one SVG face per piece, labelled with its notation", () => {
    for (const p of ["1m", "9p", "1s", "7z", "3f"]) {
      const vnode = Tile({ piece: p }) as any;
      expect(vnode.props.piece).toBe(p);
      expect(vnode.props.title).toBe(pieceName(p));
    }
    for (const p of ["9s", "Qh"]) {
      const vnode = Card({ piece: p }) as any;
      expect(vnode.props.piece).toBe(p);
      expect(vnode.props.title).toBe(cardName(p));
    }
    expect((Card({ piece: "SJ" }) as any).props.big).toBe(false);
    expect((Card({ piece: "BJ" }) as any).props.big).toBe(true);
  });
});

describe("item names", () => {
  const items = { qinger: { da_gui: { zh: "大鬼", en: "big joker" } } };
  it("keeps the event's count and translates the name", () => {
    expect(itemName(items, "qinger", "da_gui", "大鬼 ×2", "zh")).toBe("大鬼 ×2");
    expect(itemName(items, "qinger", "da_gui", "大鬼 ×2", "en")).toBe("big joker ×2");
    expect(itemName(items, "qinger", "da_gui", undefined, "zh")).toBe("大鬼");
    expect(itemName(items, "qinger", "unknown", undefined, "en")).toBe("unknown");
  });
});
