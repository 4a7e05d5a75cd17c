// No import cycle between the client's modules (type-only imports included): a module may
// only lean on those below it. Reads the sources as text, so it needs no bundler.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(fileURLToPath(new URL(".", import.meta.url)), "../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d: import("node:fs").Dirent) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.(ts|tsx)$/.test(d.name) && !d.name.endsWith(".d.ts") ? [join(dir, d.name)] : [],
  );
}

const IMPORT = /(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g;

export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, "utf8");
    const deps: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".")) continue;
      const base = resolve(f, "..", spec);
      const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((p) => known.has(p));
      if (hit) deps.push(hit);
    }
    graph.set(f, deps);
  }
  return graph;
}

export function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) return stack.slice(stack.indexOf(d)).concat([d]);
      if (!state.has(d)) {
        const c = visit(d);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const n of graph.keys()) {
    if (!state.has(n)) {
      const c = visit(n);
      if (c) return c;
    }
  }
  return null;
}

describe("module imports", () => {
  it("finds a cycle when there is one", () => {
    const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", []]]);
    expect(findCycle(g)).toEqual(["a", "b", "c", "a"]);
    expect(findCycle(new Map([["a", ["b"]], ["b", []]]))).toBeNull();
  });
  it("has no cycle among the client's modules", () => {
    const files = sources(SRC);
    const graph = importGraph(files);
    expect(files.length).toBeGreaterThan(10);
    // the graph is read: main imports the pages
    expect(graph.get(join(SRC, "main.tsx"))!.length).toBeGreaterThan(3);
    const cycle = findCycle(graph);
    expect(cycle?.map((f) => f.slice(SRC.length + 1)) ?? null).toBeNull();
  });
});
