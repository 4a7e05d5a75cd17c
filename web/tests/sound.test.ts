// The sounds: the right one for each kind of event, our own synthesis (oscillators and a
// noise burst made here; no audio file is fetched or decoded), and mute honoured.
import { describe, expect, it } from "vitest";
import { cueFor } from "../src/events";
import { play, type Cue } from "../src/sound";

interface Played {
  notes: { type: string; f: number }[];
  noise: { filter: string; f: number }[];
  decoded: number;
}

/** An AudioContext stand-in that records every note and noise burst it is asked for. */
function recorder(): { make: () => AudioContext; played: Played } {
  const played: Played = { notes: [], noise: [], decoded: 0 };
  const node = () => ({ connect: (next: unknown) => next, start: () => undefined, stop: () => undefined });
  const ctx: any = {
    currentTime: 0,
    sampleRate: 8000,
    state: "running",
    destination: {},
    createOscillator() {
      const osc: any = { ...node(), type: "sine" };
      osc.frequency = { setValueAtTime: (f: number) => played.notes.push({ type: osc.type, f }) };
      return osc;
    },
    createGain: () => ({ ...node(), gain: { value: 1, setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined } }),
    createBuffer: (_ch: number, len: number) => {
      const data = new Float32Array(len);
      return { getChannelData: () => data, data };
    },
    createBufferSource() {
      const src: any = { ...node(), buffer: null };
      src.start = () => {
        const samples: Float32Array = src.buffer.data;
        // a decaying burst: louder at the start than at the end, never silent throughout
        expect(samples.some((x) => x !== 0)).toBe(true);
        expect(Math.abs(samples[samples.length - 1])).toBeLessThan(0.01);
        played.noise.push({ filter: filter.type, f: filter.frequency.value });
      };
      return src;
    },
    createBiquadFilter() {
      filter = { ...node(), type: "lowpass", frequency: { value: 0 } };
      return filter;
    },
    decodeAudioData: () => {
      played.decoded++;
      return Promise.resolve(null);
    },
  };
  let filter: any = null;
  return { make: () => ctx as AudioContext, played };
}

function sound(cue: Cue): Played {
  const r = recorder();
  play(cue, false, r.make);
  return r.played;
}

describe("sounds", () => {
  it("knocks for a discard, chimes for a claim, a rising run for a win", () => {
    expect(sound("discard")).toEqual({ notes: [], noise: [{ filter: "bandpass", f: 1800 }], decoded: 0 });
    expect(sound("claim").notes).toEqual([
      { type: "triangle", f: 523 },
      { type: "triangle", f: 659 },
    ]);
    expect(sound("win").notes.map((n) => n.f)).toEqual([523, 659, 784, 1047]);
    expect(sound("turn").notes).toEqual([{ type: "sine", f: 880 }]);
    expect(sound("payment").notes).toEqual([
      { type: "square", f: 1319 },
      { type: "square", f: 1760 },
    ]);
  });
  it("each event kind gets its own sound, a win above a claim above the rest", () => {
    expect(cueFor([{ type: "discard", seat: 1, tile: "5m" }])).toBe("discard");
    const discard = { type: "discard", seat: 1, tile: "5m" } as const;
    const pong = { type: "pong", seat: 2, tile: "5m", from: 1 } as const;
    const pay = { type: "payment", seat: 1, payer: 2, payee: 1, amount: 2, reason: "gang" } as const;
    expect(cueFor([discard, pong])).toBe("claim");
    expect(cueFor([{ type: "concealed_kong", seat: 2, tile: "5m" }])).toBe("claim");
    expect(cueFor([pay])).toBe("payment");
    // kong money comes with its kong: the kong's sound
    expect(cueFor([{ type: "kong", seat: 1, tile: "5m", from: 0 }, pay])).toBe("claim");
    expect(cueFor([pong, { type: "win", winners: [0], how: "discard", tile: "5m" }])).toBe("win");
    expect(cueFor([{ type: "draw", seat: 0 }])).toBeNull();
  });
  it("plays nothing, and makes no audio context, when muted", () => {
    let made = 0;
    const r = recorder();
    for (const cue of ["discard", "claim", "win", "turn", "payment"] as Cue[]) {
      play(cue, true, () => {
        made++;
        return r.make();
      });
    }
    expect(made).toBe(0);
    expect(r.played).toEqual({ notes: [], noise: [], decoded: 0 });
  });
  it("stays silent without WebAudio (an old browser)", () => {
    expect(() => play("win", false, () => null)).not.toThrow();
  });
});
