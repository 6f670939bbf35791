/**
 * `npm run openapi`: regenerates schemas/openapi.json from the zod schemas (src/openapi/).
 * The TypeScript is bundled with esbuild (already a dependency of wrangler) into a temporary
 * module, run, and the document written as Prettier formats JSON, so `format:check` stays clean.
 * The document is checked by an independent validator (@apidevtools/swagger-parser) first.
 * `--check` exits 1 instead of writing when the committed file is stale.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, resolveConfig } from "prettier";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = join(root, "schemas/openapi.json");
const dir = mkdtempSync(join(tmpdir(), "edgeshot-openapi-"));
try {
  const outfile = join(dir, "document.mjs");
  await build({
    entryPoints: [join(root, "src/openapi/document.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
  });
  const { buildDocument } = await import(pathToFileURL(outfile).href);
  const document = buildDocument();
  // An independent validator (OpenAPI 3.1 schema + references); it throws on the first error.
  await SwaggerParser.validate(structuredClone(document));
  const options = { ...(await resolveConfig(target)), filepath: target };
  const text = await format(JSON.stringify(document), options);
  if (process.argv.includes("--check")) {
    const current = readFileSync(target, "utf8");
    if (current !== text) {
      console.error("schemas/openapi.json is stale: run `npm run openapi`.");
      process.exit(1);
    }
    console.log("schemas/openapi.json is up to date.");
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
