// The fixture server (test/fixtures/server.ts) in its own process, so its event loop does not
// share the bench's (which times both systems). Usage: node fixture.mjs <port> [<port> …]
// More ports are more fixture listeners: the real page's other origins (bench/README.md, "real"):
// static.localhost, img.localhost and localhost on the 2nd, 3rd and 4th port. Each port keeps its
// own request log. Prints "ready <port>" once listening; exits when its parent goes away.
import { configureRealPage } from "../test/fixtures/real-page.ts";
import { startFixtureServer } from "../test/fixtures/server.ts";
import { exitWithParent } from "./lib/child.mjs";

const [port, ...extra] = process.argv.slice(2).map(Number);
if (![port, ...extra].every((p) => Number.isInteger(p) && p > 0)) {
  console.error("usage: node bench/fixture.mjs <port> [<port> …]");
  process.exit(2);
}
await startFixtureServer(port);
for (const p of extra) await startFixtureServer(p);
if (extra.length >= 3) {
  configureRealPage({
    static: `http://static.localhost:${extra[0]}`,
    img: `http://img.localhost:${extra[1]}`,
    api: `http://localhost:${extra[2]}`,
  });
}
console.log(`ready ${port}`);
exitWithParent();
