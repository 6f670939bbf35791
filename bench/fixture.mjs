// The fixture server (test/fixtures/server.ts) in its own process, so its event loop does not
// share the bench's (which times both systems). Usage: node fixture.mjs <port>
// Prints "ready <port>" once listening; exits when its parent goes away.
import { startFixtureServer } from "../test/fixtures/server.ts";

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: node bench/fixture.mjs <port>");
  process.exit(2);
}
await startFixtureServer(port);
console.log(`ready ${port}`);
// Orphan guard: if the bench died without killing us, stop on our own.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 2000).unref();
// Keep the process alive while the server listens (the interval is unref'd).
process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));
