#!/usr/bin/env node
/**
 * `node scripts/upload-size.mjs` (in `npm test`): builds the Worker as `wrangler deploy` would
 * (`--dry-run --outdir`, a temporary directory), prints each module's gzipped size and their
 * total, and exits 1 when the total is over the budget. Static assets (wrangler.toml [assets])
 * are uploaded apart and do not count; neither do source maps, which are not uploaded.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { spawnWrangler } from "./lib/service.mjs";

/** The gzipped upload may not exceed 1 MB: the bundle's weight is paid at every cold start. */
const BUDGET_BYTES = 1_000_000;

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const outdir = mkdtempSync(join(tmpdir(), "edgeshot-upload-"));
try {
  const wrangler = spawnWrangler(["deploy", "--dry-run", "--outdir", outdir], {
    output: "pipe",
    detached: false,
  });
  let log = "";
  wrangler.stdout?.on("data", (d) => (log += d));
  wrangler.stderr?.on("data", (d) => (log += d));
  const code = await new Promise((resolve) => wrangler.on("exit", resolve));
  if (code !== 0) {
    console.error(log);
    throw new Error(`wrangler deploy --dry-run exited ${code}`);
  }

  const modules = readdirSync(outdir).filter((f) => !f.endsWith(".map") && f !== "README.md");
  let total = 0;
  for (const file of modules) {
    const gzipped = gzipSync(readFileSync(join(outdir, file))).byteLength;
    total += gzipped;
    console.log(`  ${kb(gzipped).padStart(10)}  ${file}`);
  }
  const verdict = total <= BUDGET_BYTES ? "within" : "OVER";
  console.log(`Worker upload, gzipped: ${kb(total)} (${verdict} the ${kb(BUDGET_BYTES)} budget)`);
  if (total > BUDGET_BYTES) process.exitCode = 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
