#!/usr/bin/env node
// The SDK as a customer gets it (`npm run sdk:check`, part of `npm test`): `npm pack ./sdk` (its
// `prepare` builds dist/), the tarball installed offline into a throwaway project, then a small
// file importing it type-checked with the repo's TypeScript under moduleResolution NodeNext and
// Bundler (declarations included: skipLibCheck off), and imported once by Node for real.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const work = mkdtempSync(join(tmpdir(), "edgeshot-sdk-check-"));

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const SAMPLE = `import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  Edgeshot,
  EdgeshotError,
  verifyWebhook,
  type Job,
  type VerifyWebhookResult,
} from "@edgeshot/sdk";

const client = new Edgeshot({ apiKey: "svc_x", baseUrl: "https://api.example.com" });
export async function poll(id: string): Promise<Job["status"]> {
  return (await client.jobs.get(id)).status;
}
export const check: Promise<VerifyWebhookResult> = verifyWebhook({
  body: "{}",
  signature: "00",
  timestamp: "1",
  secret: "s",
  toleranceSeconds: DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
});
export const isError = (e: unknown): boolean => e instanceof EdgeshotError;
`;

const SETTINGS = {
  NodeNext: { module: "NodeNext", moduleResolution: "NodeNext" },
  Bundler: { module: "ES2022", moduleResolution: "Bundler" },
};

try {
  const packed = JSON.parse(
    run(npm, ["pack", join(root, "sdk"), "--json", "--pack-destination", work], root),
  );
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  for (const need of ["dist/index.js", "dist/index.d.ts", "dist/webhooks.d.ts"])
    if (!files.includes(need)) throw new Error(`the tarball lacks ${need}: ${files.join(", ")}`);
  if (files.some((f) => f.startsWith("src/"))) throw new Error("the tarball ships src/");

  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }),
  );
  run(
    npm,
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball],
    project,
  );
  writeFileSync(join(project, "index.ts"), SAMPLE);

  for (const [name, options] of Object.entries(SETTINGS)) {
    const config = {
      compilerOptions: {
        ...options,
        target: "ES2022",
        lib: ["ES2023", "DOM"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ["index.ts"],
    };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config));
    try {
      run(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], project);
    } catch (error) {
      throw new Error(`tsc (moduleResolution ${name}) failed:\n${error.stdout}${error.stderr}`);
    }
  }

  const exported = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'const m = await import("@edgeshot/sdk"); console.log(Object.keys(m).sort().join(","))',
    ],
    project,
  ).trim();
  for (const name of ["Edgeshot", "EdgeshotError", "verifyWebhook"])
    if (!exported.split(",").includes(name))
      throw new Error(`Node import lacks ${name}: ${exported}`);

  console.log(
    `✔ @edgeshot/sdk packs (${files.length} files), installs from its tarball, type-checks under ` +
      `NodeNext and Bundler, and imports in Node.`,
  );
} catch (error) {
  console.error(`✖ sdk:check: ${error.message}`);
  if (error.stdout) console.error(error.stdout);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
