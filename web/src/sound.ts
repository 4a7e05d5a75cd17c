// Our own sounds, synthesised with WebAudio at play time (no audio files, nothing recorded).

export type Cue = "discard" | "claim" | "win" | "turn" | "payment";

let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor = (globalThis as any).AudioContext ?? (globalThis as any).webkitAudioContext;
  if (!Ctor) return null;
  try {
    ctx = new Ctor() as AudioContext;
  } catch {
    return null;
  }
  return ctx;
}

/** One enveloped oscillator note: ``f`` Hz from ``at`` seconds for ``len`` seconds. */
function note(c: AudioContext, f: number, at: number, len: number, type: OscillatorType, gain: number): void {
  const osc = c.createOscillator();
  const g = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f, c.currentTime + at);
  g.gain.setValueAtTime(0.0001, c.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, c.currentTime + at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + at + len);
  osc.connect(g).connect(c.destination);
  osc.start(c.currentTime + at);
  osc.stop(c.currentTime + at + len + 0.02);
}

/** A tile set down: a short filtered noise burst, like a click on wood. */
function knock(c: AudioContext): void {
  const len = 0.06;
  const buf = c.createBuffer(1, Math.floor(c.sampleRate * len), c.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 3);
  const src = c.createBufferSource();
  src.buffer = buf;
  const filter = c.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  const g = c.createGain();
  g.gain.value = 0.5;
  src.connect(filter).connect(g).connect(c.destination);
  src.start();
}

/**
 * Play ``cue`` unless ``muted`` (then no audio context is even made). ``make`` gives the
 * context: the page's own by default; the tests hand in one that records what is played.
 */
export function play(cue: Cue, muted: boolean, make: () => AudioContext | null = audio): void {
  if (muted) return;
  const c = make();
  if (!c) return;
  if (c.state === "suspended") void c.resume().catch(() => undefined);
  if (cue === "discard") knock(c);
  else if (cue === "claim") {
    note(c, 523, 0, 0.12, "triangle", 0.25);
    note(c, 659, 0.08, 0.16, "triangle", 0.25);
  } else if (cue === "win") {
    [523, 659, 784, 1047].forEach((f, i) => note(c, f, i * 0.09, 0.3, "triangle", 0.22));
  } else if (cue === "turn") note(c, 880, 0, 0.15, "sine", 0.18);
  else if (cue === "payment") {
    note(c, 1319, 0, 0.08, "square", 0.06);
    note(c, 1760, 0.06, 0.12, "square", 0.06);
  }
}
