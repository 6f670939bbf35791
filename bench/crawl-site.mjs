// The crawl fixture site (test/fixtures/crawl-site.ts) in bench mode, in its own process: `/`
// over a breadth-first tree of N pages; `peer` as a real site (robots.txt rules, neighbour links,
// subresources: the crawl-peer scenario). Usage: node crawl-site.mjs <port> <pages> [peer]
// Prints "ready <port>" once listening; exits when its parent goes away.
import { startCrawlSite } from "../test/fixtures/crawl-site.ts";
import { exitWithParent } from "./lib/child.mjs";

const port = Number(process.argv[2]);
const pages = Number(process.argv[3]);
if (!Number.isInteger(port) || port <= 0 || !Number.isInteger(pages) || pages < 1) {
  console.error("usage: node bench/crawl-site.mjs <port> <pages> [peer]");
  process.exit(2);
}
await startCrawlSite(port, { pages, peer: process.argv[4] === "peer" });
console.log(`ready ${port}`);
exitWithParent();
