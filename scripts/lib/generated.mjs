// The tail every generator shares (scripts/openapi.mjs, python-types.mjs, page-reader.mjs): write
// the generated file, or with `--check` on the command line (in `npm test`) compare it with the
// committed one and fail when it is stale or missing, naming the command that regenerates it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
const check = process.argv.includes("--check");

/** Writes `text` to `relative` (from the repository root), or checks it: exit code 1 when stale. */
export function writeGenerated(relative, text, command) {
  const target = join(ROOT, relative);
  if (!check) {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
    return;
  }
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // missing: stale
  }
  if (current !== text) {
    console.error(`${relative} is stale: run \`${command}\`.`);
    process.exitCode = 1;
    return;
  }
  console.log(`${relative} is up to date.`);
}
