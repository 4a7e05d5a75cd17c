import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyMessage, initialState, type RoomInfo } from "../src/state";
import type { FairInfo, FairReveal } from "../src/schema/server-messages";
import { checkFairDeal, handKey, handMessage, hexToBytes, bytesToHex, newClientSeed, rebuildWall, sha256Hex } from "../src/fair";

// the spec's vectors (docs/spec/fair-deal.md §5), shared with the Python tests
const vectors = JSON.parse(readFileSync(new URL("../../tests/data/fair/vectors.json", import.meta.url), "utf-8"));

describe("fair deal in the browser", () => {
  for (const c of vectors.cases) {
    it(`rebuilds ${c.name}`, async () => {
      const seed = hexToBytes(c.server_seed);
      expect(await sha256Hex(seed)).toBe(c.commitment);
      expect(handMessage(c.room, c.hand, c.client_seeds)).toBe(c.message);
      const key = await handKey(seed, c.room, c.hand, c.client_seeds);
      expect(bytesToHex(key)).toBe(c.hand_key);
      for (let j = 0; j < c.walls.length; j++) {
        expect(await rebuildWall(key, j, c.pieces)).toEqual(c.walls[j]);
      }
    });
  }

  it("makes client seeds the server accepts", () => {
    const seed = newClientSeed();
    expect(seed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newClientSeed()).not.toBe(seed);
  });

  const c = vectors.cases[1];
  const shown: FairInfo = { scheme: "paiju-fair-1", commitment: c.commitment, room: c.room, client_seeds: c.client_seeds };
  const reveal: FairReveal = { ...shown, server_seed: c.server_seed };
  const record = [
    { record: "paiju", fair: shown },
    { type: "hand_end", index: c.hand, walls: c.walls },
    { type: "match_end", server_seed: c.server_seed },
  ];

  it("passes an honest match", async () => {
    const result = await checkFairDeal(shown, reveal, 0, c.client_seeds[0], record);
    expect(result.ok).toBe(true);
    expect(result.walls).toBe(1);
  });

  it("refuses a seed that is not the committed one", async () => {
    const other = { ...reveal, server_seed: "00".repeat(32) };
    const result = await checkFairDeal(shown, other, 0, c.client_seeds[0], record);
    expect(result.ok).toBe(false);
    expect(result.steps.at(-1)).toEqual({ what: "seed", ok: false });
  });

  it("refuses a changed commitment, a dropped seed and a changed wall", async () => {
    const moved = await checkFairDeal({ ...shown, commitment: "11".repeat(32) }, reveal, 0, c.client_seeds[0], record);
    expect(moved.steps.at(-1)?.what).toBe("commitment");
    const mine = await checkFairDeal(shown, reveal, 0, "not-mine", record);
    expect(mine.steps.at(-1)).toEqual({ what: "my_seed", ok: false });
    const wall = [...c.walls[0]];
    const k = wall.findIndex((p: number) => p !== wall[0]);
    [wall[0], wall[k]] = [wall[k], wall[0]];
    const tampered = [record[0], { ...record[1], walls: [wall] }, record[2]];
    const bad = await checkFairDeal(shown, reveal, 0, c.client_seeds[0], tampered);
    expect(bad.ok).toBe(false);
    expect(bad.steps.at(-1)?.what).toBe(`wall 1 of hand ${c.hand + 1}`);
  });

  it("refuses a record whose hand end is not numbers (a file anyone may hand over)", async () => {
    const garbled = [record[0], { ...record[1], walls: [["1m", "2m"]] }, record[2]];
    const bad = await checkFairDeal(shown, reveal, 0, c.client_seeds[0], garbled);
    expect(bad.ok).toBe(false);
    expect(bad.steps.at(-1)).toEqual({ what: "record line 2", ok: false });
  });
});

describe("the commitment the client remembers", () => {
  const fair = { scheme: "paiju-fair-1", commitment: "ab".repeat(32), room: "ROOMAAAAAA", client_seeds: ["x", "", "", ""] };
  const room = { code: "ROOMAAAAAA", fair } as unknown as RoomInfo;
  const you = { seat: 0, host: true, client_seed: "x" };
  it("keeps the first commitment shown, even if a later message shows another", () => {
    let s = applyMessage(initialState(), { type: "room", room, you }, 0);
    expect(s.fairShown?.commitment).toBe(fair.commitment);
    const changed = { ...room, fair: { ...fair, commitment: "cd".repeat(32) } } as RoomInfo;
    s = applyMessage(s, { type: "room", room: changed, you }, 0);
    expect(s.fairShown?.commitment).toBe(fair.commitment);
    const seeds = { ...room, fair: { ...fair, client_seeds: ["x", "y", "", ""] } } as RoomInfo;
    s = applyMessage(s, { type: "room", room: seeds, you }, 0);
    expect(s.fairShown?.client_seeds).toEqual(["x", "y", "", ""]);
    const other = { ...room, code: "ROOMBBBBBB", fair: { ...fair, room: "ROOMBBBBBB", commitment: "ef".repeat(32) } } as RoomInfo;
    s = applyMessage(s, { type: "room", room: other, you }, 0);
    expect(s.fairShown?.commitment).toBe("ef".repeat(32));
  });
});

describe("the 验证 panel's words", () => {
  it("names the failing step in the page's language", async () => {
    const { stepText } = await import("../src/fairpanel");
    expect(stepText("zh", "wall 2 of hand 3")).toBe("第 3 局的第 2 副牌墙不是种子生成的");
    expect(stepText("en", "wall 2 of hand 3")).toBe("wall 2 of hand 3 is not the one the seeds make");
    expect(stepText("zh", "seed")).toBe("服务器种子的 SHA-256 与承诺不符");
    expect(stepText("zh", "record line 2")).toBe("记录第 2 行的牌墙无法读取");
    expect(stepText("zh", "something new")).toBe("something new");
  });
});
