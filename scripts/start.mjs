#!/usr/bin/env node
// `npm start [-- wrangler dev flags]`: runs `wrangler dev` with local storage and the local
// browser. Every argument passes through to wrangler; defaults live in wrangler.toml [dev].
import { spawn } from "node:child_process";

const args = ["dev", ...process.argv.slice(2)];
const child = spawn("wrangler", args, { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
