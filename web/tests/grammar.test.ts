import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { callouts } from "../src/events";
import { actionPiece, actionVerb, parseAction } from "../src/notation";
import { EVENT_VERBS, VERBS } from "../src/schema/grammar";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "tests", "data");

/** Every action string the engine wrote in the golden records of the three games. */
function recordedActions(): string[] {
  const out = new Set<string>();
  for (const game of ["jiaxing", "taixing", "qinger"]) {
    const dir = join(DATA, game, "golden");
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".jsonl"))) {
      for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
        if (!line) continue;
        const obj = JSON.parse(line);
        if (obj.type === "action") out.add(obj.action);
      }
    }
  }
  return [...out];
}

describe("the action grammar the engine publishes (schema/grammar.ts)", () => {
  it("reads words and pieces as the engine does", () => {
    expect(parseAction("d5m")).toEqual({ verb: "d", piece: "5m" });
    expect(parseAction("an5m")).toEqual({ verb: "an", piece: "5m" });
    expect(parseAction("jia7z")).toEqual({ verb: "jia", piece: "7z" });
    expect(parseAction("qifeiK")).toEqual({ verb: "qifei", piece: "K" });
    expect(parseAction("ting")).toEqual({ verb: "ting", piece: "" });
    expect(parseAction("ting3s")).toEqual({ verb: "ting", piece: "3s" });
    expect(parseAction("chi2")).toEqual({ verb: "chi", piece: "2" });
    expect(parseAction("knock")).toEqual({ verb: "knock", piece: "" });
    expect(parseAction("wuxi")).toEqual({ verb: "wuxi", piece: "" });
    expect(parseAction("chi")).toBeNull();
    expect(parseAction("passx")).toBeNull();
    expect(parseAction("")).toBeNull();
  });
  it("reads every action of the golden records back to the same string, each with a label", () => {
    const actions = recordedActions();
    expect(actions.length).toBeGreaterThan(50);
    for (const action of actions) {
      const read = parseAction(action);
      expect(read, action).not.toBeNull();
      expect(read!.verb + read!.piece).toBe(action);
      expect(VERBS.some((v) => v.word === read!.verb)).toBe(true);
      const piece = actionPiece(action);
      if (read!.piece && read!.verb !== "chi") expect(piece, action).toBeTruthy();
      else expect(piece, action).toBeNull();
      expect(actionVerb(action).length).toBeGreaterThan(0);
    }
  });
  it("calls out a move event by the word of the action that made it", () => {
    expect(EVENT_VERBS.concealed_kong).toBe("an");
    expect(EVENT_VERBS.added_kong).toBe("jia");
    const [an] = callouts("zh", [{ type: "concealed_kong", seat: 1, tile: "5m" }], false);
    expect(an.text).toBe("暗杠");
    const [off] = callouts("en", [{ type: "takeoff", seat: 0, cards: "9999s" }], false);
    expect(off.text).toBe("Take off");
  });
});
