import { describe, expect, it } from "vitest";
import { replayData } from "../src/replay";
import type { ReplayAnswer, RestAnswers, SeatView } from "../src/schema/server-messages";

describe("the replay's frames (GET /api/games/{id}/frames, typed from the server's schema)", () => {
  const hand = { variant: "jiaxing", phase: "play", players: [] } as unknown as SeatView;
  const between = { phase: "between_hands" } as unknown as SeatView;
  const answer: RestAnswers["GET /api/games/{game_id}/frames"] = {
    variant: "jiaxing",
    seats: ["bot:random", "小王", "bot:greedy", "bot:strong"],
    options: { hands: 1 },
    hands: 1,
    totals: [-1, 1, 0, 0],
    frames: [
      { hand: 0, action: null, events: [], state: hand, totals: [0, 0, 0, 0] },
      { hand: 0, action: { seat: 1, action: "d7z" }, events: [{ type: "discard", seat: 1, tile: "7z" }], state: hand, totals: [0, 0, 0, 0] },
      { hand: 1, action: null, events: [], state: between, totals: [-1, 1, 0, 0] },
    ],
  };

  it("keeps every frame that shows a hand and drops one that does not", () => {
    const data = replayData(answer);
    expect(data.frames.map((f) => f.action?.action ?? null)).toEqual([null, "d7z"]);
    expect(data.frames[1].state.players).toEqual([]);
    expect({ ...data, frames: [] }).toEqual({ ...answer, frames: [] });
  });

  it("takes an answer without frames as an empty replay", () => {
    const empty = { ...answer, frames: undefined } as unknown as ReplayAnswer;
    expect(replayData(empty).frames).toEqual([]);
  });
});
