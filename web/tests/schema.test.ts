import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generate, outputs, tsType } from "../scripts/schema-types.mjs";

describe("types generated from the server's JSON Schema", () => {
  it("turns pydantic's schema shapes into TypeScript", () => {
    expect(tsType({ type: "integer" })).toBe("number");
    expect(tsType({ anyOf: [{ type: "integer" }, { type: "null" }] })).toBe("number | null");
    expect(tsType({ const: "hand_end" })).toBe('"hand_end"');
    expect(tsType({ enum: ["person", "bot"] })).toBe('"person" | "bot"');
    expect(tsType({ type: "array", items: { $ref: "#/$defs/Seat" } })).toBe("Seat[]");
    expect(tsType({ type: "object", additionalProperties: true })).toBe("Record<string, unknown>");
    const text = generate(
      {
        title: "ServerMessage",
        protocol: 1,
        oneOf: [{ $ref: "#/$defs/Pong" }, { $ref: "#/$defs/Error" }],
        $defs: {
          Pong: { type: "object", properties: { type: { const: "pong" }, t: { anyOf: [{ type: "number" }, { type: "null" }] } }, required: ["type"] },
          Error: { type: "object", description: "A refusal.", properties: { type: { const: "error" }, code: { type: "string" } }, required: ["type", "code"], additionalProperties: false },
        },
      },
      "test.json",
    );
    expect(text).toContain('export interface Pong {\n  t?: number | null;\n  type: "pong";\n}');
    expect(text).toContain("/** A refusal. */\nexport interface Error {");
    expect(text).toContain("export type ServerMessage = Pong | Error;");
    expect(text).toContain("export const PROTOCOL_VERSION = 1;");
  });
  it("names each REST endpoint's answer (the schema's rest index)", () => {
    const text = generate(
      {
        title: "ServerMessage",
        oneOf: [{ $ref: "#/$defs/Pong" }],
        rest: { "GET /api/games": { type: "array", items: { $ref: "#/$defs/Game" } }, "POST /api/replay": { $ref: "#/$defs/Replay" } },
        $defs: { Pong: { type: "object", properties: { type: { const: "pong" } } }, Game: { type: "object" }, Replay: { type: "object" } },
      },
      "test.json",
    );
    expect(text).toContain('export interface RestAnswers {\n  "GET /api/games": Game[];\n  "POST /api/replay": Replay;\n}');
    // the index is no part of the message union
    expect(text).toContain("export type ServerMessage = Pong;");
  });
  it("has the committed REST answers typed (lobby, calculator, health, games, replays, reviews, 我的对局)", () => {
    const server = outputs().find(([json]) => json.endsWith("server-messages.json"));
    expect(server).toBeDefined();
    const [json, , text] = server!;
    const rest = JSON.parse(readFileSync(json, "utf8")).rest;
    expect(Object.keys(rest).sort()).toEqual([
      "GET /api/cluster",
      "GET /api/games",
      "GET /api/games/{game_id}",
      "GET /api/games/{game_id}/frames",
      "GET /api/games/{game_id}/review",
      "GET /api/health",
      "GET /api/items",
      "GET /api/open-rooms",
      "GET /api/protocol",
      "GET /api/ready",
      "GET /api/review/jobs/{job}",
      "GET /api/rooms",
      "GET /api/rooms/{code}",
      "GET /api/schema",
      "GET /api/variants",
      "POST /api/mine",
      "POST /api/replay",
      "POST /api/review",
      "POST /api/score",
    ]);
    const names = ["GameSummary", "GameSeat", "GameResult", "ReplayAnswer", "ReplayFrame", "FrameAction"];
    for (const name of [...names, "ReviewAnswer", "ReviewDecision", "ReviewCandidate", "ReviewProgress", "MineAnswer", "MineGame", "PlayerStatsAnswer"]) {
      expect(text).toContain(`export interface ${name} {`);
    }
    expect(text).toContain('"GET /api/games": GameSummary[];');
    expect(text).toContain('"POST /api/review": ReviewAnswer | ReviewProgress;');
    for (const name of ["VariantInfo", "OptionInfo", "JiaxingScore", "QingerScore", "ScoreInvalid", "HealthAnswer", "ErrorAnswer"]) {
      expect(text).toContain(`export interface ${name} {`);
    }
    expect(text).toContain('"GET /api/rooms/{code}": RoomInfo;');
    expect(text).toContain('"POST /api/score": JiaxingScore | TaixingScore | QingerScore | ScoreInvalid;');
    expect(text).toContain("export type ItemNames = Record<string, Record<string, BilingualName>>;");
  });
  it("has every committed schema's types up to date (npm run schema-types)", () => {
    for (const [json, ts, text] of outputs()) {
      expect(existsSync(ts), `${ts} is missing for ${json}`).toBe(true);
      expect(readFileSync(ts, "utf8"), `${ts} is stale`).toBe(text);
    }
  });
});
