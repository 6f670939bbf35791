/**
 * Which Node the project needs, said once and true (README, "Quick start"): `npm ci` needs the
 * system's Node ≥ 20 (package.json `engines`), and everything after it — npm scripts, npx,
 * the tests — runs on the Node of the `node` devDependency, which every installed package
 * accepts. So the EBADENGINE warnings `npm ci` would print on Node 20 name packages that never
 * run on it: the project's .npmrc keeps npm at `loglevel=error`, and every package with an
 * install script is reviewed in `allowScripts` (docs/LOCAL-DEV.md, "A quiet install").
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const semver = require("semver") as {
  satisfies(version: string, range: string, options?: { includePrerelease: boolean }): boolean;
  minVersion(range: string): { major: number } | null;
};

interface Manifest {
  name?: string;
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}
const manifest = (path: string): Manifest => JSON.parse(readFileSync(path, "utf8")) as Manifest;
const pkg = manifest(join(ROOT, "package.json"));

/** Every package directly under node_modules (scoped ones included). */
function installed(): Manifest[] {
  const base = join(ROOT, "node_modules");
  const dirs = readdirSync(base).flatMap((name) =>
    name.startsWith("@")
      ? readdirSync(join(base, name)).map((inner) => join(base, name, inner))
      : name.startsWith(".")
        ? []
        : [join(base, name)],
  );
  return dirs.flatMap((dir) => {
    try {
      return [manifest(join(dir, "package.json"))];
    } catch {
      return [];
    }
  });
}

describe("the Node the project needs", () => {
  it("package.json engines and the README state the same minimum", () => {
    const range = pkg.engines?.node ?? "";
    expect(range).toBe(">=20");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const stated = /Needs only Node ≥ (\d+)/.exec(readme)?.[1];
    expect(Number(stated)).toBe(semver.minVersion(range)?.major);
  });

  it("scripts run on the node devDependency, which every installed package accepts", () => {
    expect(process.version).toBe(`v${pkg.devDependencies?.node}`);
    const refused = installed()
      .filter((m) => m.engines?.node !== undefined && typeof m.engines.node === "string")
      .filter(
        (m) =>
          !semver.satisfies(process.version, m.engines?.node ?? "*", { includePrerelease: true }),
      )
      .map((m) => `${m.name}: ${m.engines?.node}`);
    expect(refused).toEqual([]);
  });
});

describe("a quiet npm ci", () => {
  it("npm reads loglevel=error from the project's .npmrc", () => {
    const level = execFileSync("npm", ["config", "get", "loglevel"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(level.trim()).toBe("error");
  });

  it("every locked package with an install script has its allowScripts entry", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const scripted = new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path.split("node_modules/").pop() ?? path),
    );
    expect([...scripted].filter((name) => pkg.allowScripts?.[name] === undefined)).toEqual([]);
    // vue-demi's postinstall only picks its Vue 2 or 3 build, and the one it ships is Vue 3's.
    expect(pkg.allowScripts?.["vue-demi"]).toBe(false);
  });
});
