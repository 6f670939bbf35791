/** `npm start`'s pass-through to wrangler dev: every form of --var survives the allowlist's rewrite. */
import { describe, expect, it } from "vitest";
import { splitVars, varValue, withVar } from "../../scripts/lib/start-args.mjs";

const DEMO = "TARGET_ALLOWLIST:127.0.0.1:3000,127.0.0.1:8788";
/** What start.mjs hands wrangler for `args`, the demo site joining the caller's allowlist. */
function rewrite(args: string[]): string[] {
  const given = splitVars(args);
  const allowlist = varValue(given.vars, "TARGET_ALLOWLIST");
  return withVar(
    given,
    "TARGET_ALLOWLIST",
    [allowlist, "127.0.0.1:8788"].filter(Boolean).join(","),
  );
}

describe("npm start -- <wrangler dev arguments>", () => {
  it("keeps every pair of one --var group, the allowlist first or not", () => {
    expect(rewrite(["--var", "TARGET_ALLOWLIST:127.0.0.1:3000", "B:2"])).toEqual([
      "--var",
      "B:2",
      DEMO,
    ]);
    expect(rewrite(["--var", "A:1", "TARGET_ALLOWLIST:127.0.0.1:3000", "B:2"])).toEqual([
      "--var",
      "A:1",
      "B:2",
      DEMO,
    ]);
  });

  it("reads repeated groups, the = form and other flags around them", () => {
    expect(
      rewrite([
        "--port",
        "9000",
        "--var=A:1",
        "--var",
        "TARGET_ALLOWLIST:127.0.0.1:3000",
        "--var",
        "B:2",
        "C:3",
        "--ip",
        "0.0.0.0",
      ]),
    ).toEqual(["--port", "9000", "--ip", "0.0.0.0", "--var", "A:1", "B:2", "C:3", DEMO]);
  });

  it("adds the demo site alone when no allowlist is given, and the last value wins", () => {
    expect(rewrite(["--var", "A:1"])).toEqual(["--var", "A:1", "TARGET_ALLOWLIST:127.0.0.1:8788"]);
    expect(rewrite([])).toEqual(["--var", "TARGET_ALLOWLIST:127.0.0.1:8788"]);
    const given = splitVars(["--var", "ADMIN_TOKEN:a", "--var=ADMIN_TOKEN:b"]);
    expect(varValue(given.vars, "ADMIN_TOKEN")).toBe("b");
    expect(varValue(given.vars, "MISSING")).toBeUndefined();
  });
});
