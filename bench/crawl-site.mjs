// The crawl fixture site (test/fixtures/crawl-site.ts) in bench mode, in its own process: `/`
// over a breadth-first tree of N pages; `peer` as a real site (robots.txt rules, neighbour links,
// subresources: the crawl-peer scenario); `scale:<M>` links-only pages and a sitemap index of M
// URLs (the crawl-scale scenario). Usage: node crawl-site.mjs <port> <pages> [peer|scale:<M>]
// Prints "ready <port>" once listening; exits when its parent goes away.
import { startCrawlSite } from "../test/fixtures/crawl-site.ts";
import { exitWithParent } from "./lib/child.mjs";

const port = Number(process.argv[2]);
const pages = Number(process.argv[3]);
if (!Number.isInteger(port) || port <= 0 || !Number.isInteger(pages) || pages < 1) {
  console.error("usage: node bench/crawl-site.mjs <port> <pages> [peer|scale:<M>]");
  process.exit(2);
}
const flavour = process.argv[4] ?? "";
const scale = flavour.startsWith("scale:") ? Number(flavour.slice(6)) : undefined;
await startCrawlSite(port, { pages, peer: flavour === "peer", scale });
console.log(`ready ${port}`);
exitWithParent();
