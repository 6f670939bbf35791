/**
 * `pip install ./sdk-python` with no package index (`--no-index`): the SDK builds with its own
 * standard-library backend (sdk-python/_build/edgeshot_build.py), so nothing is downloaded. The
 * installed copy — not the source tree — then imports with its metadata and `py.typed`, and the
 * SDK's offline tests (the transport against a local server, webhook signatures) pass against it.
 * The live tests need a service: test/api/python-sdk.e2e.test.ts runs them. Skipped, saying so,
 * only when python3 is absent.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/service.mjs";

const python = spawnSync("python3", ["-c", "import sys; print(sys.version_info >= (3, 11))"], {
  encoding: "utf8",
});
const present = python.status === 0 && python.stdout.trim() === "True";
if (!present)
  console.warn("[python-sdk] python3 ≥ 3.11 (tomllib) not found: the install test is SKIPPED.");

function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const res = spawnSync("python3", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: "1",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      ...env,
    },
    timeout: 120_000,
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe.skipIf(!present)("the Python SDK installs with no package index", () => {
  const dir = mkdtempSync(join(tmpdir(), "edgeshot-py-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("pip install --no-index ./sdk-python, then the offline tests against the installed copy", () => {
    const site = join(dir, "site");
    const install = run(
      ["-m", "pip", "install", "--no-index", "--no-cache-dir", "--target", site, "./sdk-python"],
      ROOT,
    );
    expect(install.code, install.out).toBe(0);
    expect(existsSync(join(site, "edgeshot", "py.typed"))).toBe(true);

    // The metadata is pyproject.toml's (read with tomllib here, by the backend's own reader there).
    const check = run(
      [
        "-c",
        [
          "import edgeshot, importlib.metadata as m, json, tomllib, sys",
          "p = tomllib.load(open(sys.argv[1], 'rb'))['project']",
          "d = m.metadata('edgeshot')",
          "print(json.dumps({'file': edgeshot.__file__, 'same': [d['Name'], d['Version'], d['Requires-Python'], d['Summary']] == [p['name'], p['version'], p['requires-python'], p['description']]}))",
        ].join("\n"),
        join(ROOT, "sdk-python", "pyproject.toml"),
      ],
      dir,
      { PYTHONPATH: site },
    );
    expect(check.code, check.out).toBe(0);
    const facts = JSON.parse(check.out) as { file: string; same: boolean };
    expect(facts.file).toBe(join(site, "edgeshot", "__init__.py"));
    expect(facts.same).toBe(true);

    // The tests put their parent folder first on sys.path: beside the installed package here.
    cpSync(join(ROOT, "sdk-python", "tests"), join(site, "tests"), { recursive: true });
    const tests = run(["-m", "unittest", "discover", "-s", "tests", "-p", "test_[tw]*.py"], site);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/^OK\b/m);
    expect(tests.out).toMatch(/^Ran ([1-9]\d*) tests/m);
  });
});
