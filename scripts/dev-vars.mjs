#!/usr/bin/env node
// Creates .dev.vars from .dev.vars.example: secrets (`change-me`) get fresh random values, local
// settings (e.g. BROWSER_HOSTS=1) are copied as they are, empty values (optional integrations)
// stay empty. An existing .dev.vars keeps its values and gains the local settings it lacks.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

const ENTRY = /^([A-Z0-9_]+)=(.*)$/;
const example = readFileSync(".dev.vars.example", "utf8").split("\n");

if (!existsSync(".dev.vars")) {
  const lines = example.map((line) => {
    const m = ENTRY.exec(line);
    return m && m[2] === "change-me" ? `${m[1]}=${randomBytes(24).toString("hex")}` : line;
  });
  writeFileSync(".dev.vars", lines.join("\n"), { mode: 0o600 });
  console.log("[setup] wrote .dev.vars with random secrets");
} else {
  const present = new Set(
    readFileSync(".dev.vars", "utf8")
      .split("\n")
      .map((line) => ENTRY.exec(line)?.[1])
      .filter(Boolean),
  );
  const missing = example.filter((line) => {
    const m = ENTRY.exec(line);
    return m && m[2] !== "change-me" && m[2] !== "" && !present.has(m[1]);
  });
  if (missing.length > 0) {
    appendFileSync(".dev.vars", `\n# Added from .dev.vars.example\n${missing.join("\n")}\n`);
    console.log(`[setup] added to .dev.vars: ${missing.map((l) => l.split("=")[0]).join(", ")}`);
  }
}
