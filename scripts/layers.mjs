#!/usr/bin/env node
// The layer check (docs/ARCHITECTURE.md, "Layers"). A top-level part is each folder or file
// directly under src/ (src/capture/, src/config.ts), and schemas/. Each part sits in a row of
// the table below; a part may import parts of lower rows, and parts of its own row one way only.
// Fails on:
//   - an import into a higher row (the file, and the two parts' rows);
//   - a cycle among parts, of any length (a → b → c → a), with the imports along it;
//   - a part the table does not place.
// Imports are read by madge, as `npm run cycles` reads them (type-only imports count).
//
//   node scripts/layers.mjs           check
//   node scripts/layers.mjs --graph   print which part imports which, then check
import madge from "madge";
import { fileURLToPath } from "node:url";

/** docs/ARCHITECTURE.md's table, bottom row first. */
const ROWS = [
  ["schemas", "package.json"],
  [
    "errors.ts",
    "user-messages.ts",
    "log.ts",
    "encoding.ts",
    "hosts.ts",
    "streams.ts",
    "tuning.ts",
    "data",
    "signing",
  ],
  ["config.ts"],
  ["accounts", "security", "extract"],
  ["capture", "storage", "webhooks", "idempotency"],
  ["capture-request"],
  ["pipeline"],
  ["jobs", "render-links", "artifacts"],
  ["watches", "crawl", "monitors"],
  ["queues", "account-do"],
  ["http"],
  ["index.ts"],
];
const ROW = new Map(ROWS.flatMap((parts, row) => parts.map((part) => [part, row])));

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await madge(["src", "schemas"], {
  baseDir: root,
  fileExtensions: ["ts"],
  tsConfig: `${root}tsconfig.json`,
});

/** `src/capture/page/page.ts` → `capture`, `src/config.ts` → `config.ts`, `schemas/x.ts` → `schemas`. */
function part(file) {
  const [top, name] = file.split("/");
  return top === "src" ? name : top;
}

/** "a → b" → the imports behind it, as "file → file". */
const edges = new Map();
for (const [file, deps] of Object.entries(result.obj())) {
  for (const dep of deps) {
    const from = part(file);
    const to = part(dep);
    if (from === to) continue;
    const key = `${from} → ${to}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${file} → ${dep}`);
  }
}
const graph = new Map();
for (const key of edges.keys()) {
  const [from, to] = key.split(" → ");
  if (!graph.has(from)) graph.set(from, []);
  graph.get(from).push(to);
}

if (process.argv.includes("--graph")) {
  for (const from of [...graph.keys()].sort())
    console.log(`${from} → ${graph.get(from).sort().join(", ")}`);
  console.log();
}

const problems = [];

const parts = new Set([...graph.keys(), ...[...graph.values()].flat()]);
for (const p of [...parts].sort()) {
  if (!ROW.has(p)) problems.push(`${p}: not in any row of the table (scripts/layers.mjs ROWS)`);
}

for (const [key, imports] of edges) {
  const [from, to] = key.split(" → ");
  if (!ROW.has(from) || !ROW.has(to) || ROW.get(to) <= ROW.get(from)) continue;
  problems.push(
    `${key}: row ${ROW.get(from)} imports row ${ROW.get(to)}\n${imports.map((i) => `    ${i}`).join("\n")}`,
  );
}

// Cycles among parts: Tarjan's strongly connected components; each one with more than one part
// is reported with one cycle through it, and the imports along that cycle.
let index = 0;
const stack = [];
const state = new Map();
const components = [];
function connect(v) {
  state.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!state.has(w)) {
      connect(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) {
      state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
    }
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    for (let w; w !== v;) {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    }
    if (component.length > 1) components.push(component);
  }
}
for (const v of [...parts].sort()) if (!state.has(v)) connect(v);

/** A shortest cycle from `start` back to it, within `members` (breadth first). */
function cycleThrough(start, members) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = previous.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
for (const component of components) {
  const members = new Set(component);
  const cycle = cycleThrough(component.sort()[0], members);
  const steps = cycle.slice(1).map((to, i) => `${cycle[i]} → ${to}`);
  problems.push(
    `cycle: ${cycle.join(" → ")}\n${steps.map((s) => `    ${edges.get(s)[0]}`).join("\n")}`,
  );
}

if (problems.length === 0) {
  console.log(`✔ ${parts.size} parts of src/ and schemas/ import down their rows, with no cycle.`);
} else {
  console.error(`✖ ${problems.length} layer problem(s):`);
  for (const p of problems) console.error(`\n  ${p}`);
  process.exitCode = 1;
}
