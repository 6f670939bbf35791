#!/usr/bin/env node
// The layer check (docs/ARCHITECTURE.md, "Layers"): no two top-level parts import each other.
// A top-level part is each folder or file directly under src/ (src/capture/, src/config.ts),
// and schemas/. Imports are read by madge, as `npm run cycles` reads them (type-only imports
// count). Exits 1 listing each pair that imports both ways, with the files on each side.
//
//   node scripts/layers.mjs           check
//   node scripts/layers.mjs --graph   print which part imports which, then check
import madge from "madge";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await madge(["src", "schemas"], {
  baseDir: root,
  fileExtensions: ["ts"],
  tsConfig: `${root}tsconfig.json`,
});

/** `src/capture/page.ts` → `capture`, `src/config.ts` → `config.ts`, `schemas/x.ts` → `schemas`. */
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

if (process.argv.includes("--graph")) {
  const out = new Map();
  for (const key of edges.keys()) {
    const [from, to] = key.split(" → ");
    if (!out.has(from)) out.set(from, []);
    out.get(from).push(to);
  }
  for (const from of [...out.keys()].sort())
    console.log(`${from} → ${out.get(from).sort().join(", ")}`);
  console.log();
}

const pairs = [];
for (const key of edges.keys()) {
  const [a, b] = key.split(" → ");
  if (a < b && edges.has(`${b} → ${a}`)) pairs.push([a, b]);
}

if (pairs.length === 0) {
  console.log(`✔ No two top-level parts of src/ and schemas/ import each other.`);
} else {
  console.error(`✖ ${pairs.length} pair(s) of top-level parts import each other:`);
  for (const [a, b] of pairs.sort()) {
    console.error(`\n  ${a} ↔ ${b}`);
    for (const line of [...edges.get(`${a} → ${b}`), ...edges.get(`${b} → ${a}`)])
      console.error(`    ${line}`);
  }
  process.exitCode = 1;
}
