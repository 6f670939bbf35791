#!/usr/bin/env node
// Creates .dev.vars from .dev.vars.example with fresh random secrets when it does not exist.
// Empty example values (optional integrations) stay empty.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  const lines = readFileSync(".dev.vars.example", "utf8")
    .split("\n")
    .map((line) => {
      const m = /^([A-Z0-9_]+)=(.+)$/.exec(line);
      return m ? `${m[1]}=${randomBytes(24).toString("hex")}` : line;
    });
  writeFileSync(".dev.vars", lines.join("\n"), { mode: 0o600 });
  console.log("[setup] wrote .dev.vars with random secrets");
}
