// The local demo site `npm start` serves beside the service, on a loopback port it allowlists
// (TARGET_ALLOWLIST), so every example the banner prints works on a machine with no internet:
// a landing page, an article (reader mode finds it), a shop with a cookie banner and an ad, a
// slow page, and a small docs section with robots.txt and a sitemap to crawl and map.
import { createServer } from "node:http";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2430}
main{max-width:760px;margin:0 auto;padding:32px}header{background:#1d4ed8;color:#fff;padding:48px 32px}
nav a{margin-right:16px}.ad{background:#fde68a;padding:24px;text-align:center}
#onetrust-banner-sdk{position:fixed;bottom:0;left:0;right:0;background:#111;color:#fff;padding:24px}`;

function page(title, body, { head = "" } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta property="og:title" content="${title}"><style>${STYLE}</style>${head}</head>
<body><nav><a href="/">Home</a><a href="/article">Article</a><a href="/shop">Shop</a><a href="/slow">Slow</a><a href="/docs/">Docs</a></nav>${body}</body></html>`;
}

const PARAGRAPHS = [
  "Rockets built in a garage are older than most people think. The first amateur societies met in the 1920s, swapping drawings by post and testing motors in quarries far from the nearest house.",
  "Today a small team can print a nozzle overnight, fly it at the weekend and publish the telemetry on Monday. What has not changed is the discipline: a checklist read aloud, a countdown nobody rushes, a recovery plan for when the parachute does not open.",
  "This article is served by the local demo site of Edgeshot, so that reader-mode extraction, PDFs and screenshots can be tried with no internet connection. Its text is long enough for reader mode to recognise it as an article.",
  "When you are ready, point the same calls at your own pages: add their host and port to TARGET_ALLOWLIST to capture a local app, or use any public URL when you are online.",
];

const PAGES = {
  "/": () =>
    page(
      "Acme Rockets",
      `<header><h1>Acme Rockets</h1><p>Small rockets, carefully flown.</p></header>
<main><h2>What we do</h2><ul><li>Motors tested to the gram</li><li>Telemetry on every flight</li><li>Parachutes that open</li></ul>
<p><a href="/article">Read the story</a> or <a href="/docs/">the docs</a>.</p></main>`,
    ),
  "/article": () =>
    page(
      "A short history of garage rockets",
      `<main><article><h1>A short history of garage rockets</h1><p class="byline">By Ada Flight</p>
${PARAGRAPHS.map((p) => `<p>${p}</p>`).join("\n")}</article></main>`,
    ),
  "/shop": () =>
    page(
      "Acme Rockets shop",
      `<main><h1>Shop</h1><div class="ad">ADVERTISEMENT</div><p>Starter kit — 49 €</p></main>
<div id="onetrust-banner-sdk">We use cookies. <button>Accept all</button></div>`,
    ),
  "/docs/": () =>
    page(
      "Docs",
      `<main><h1>Docs</h1><p><a href="install">Install</a> · <a href="flight">Your first flight</a></p></main>`,
    ),
  "/docs/install": () =>
    page("Install", `<main><h1>Install</h1><p>Unpack the kit and check every part.</p></main>`),
  "/docs/flight": () =>
    page(
      "Your first flight",
      `<main><h1>Your first flight</h1><p>Read the checklist aloud.</p></main>`,
    ),
};

/** The demo site's port unless EDGESHOT_DEMO_PORT says otherwise (the README's examples). */
export const DEMO_PORT = 8788;

/** Starts the demo site on 127.0.0.1:`port`; resolves to its origin and a `close()`. */
export function startDemoSite(port) {
  const server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${port}`;
    const path = new URL(req.url ?? "/", origin).pathname;
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/robots.txt")
      return send(200, "text/plain", `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === "/sitemap.xml") {
      const urls = Object.keys(PAGES).map((p) => `<url><loc>${origin}${p}</loc></url>`);
      return send(
        200,
        "application/xml",
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
      );
    }
    if (path === "/slow") {
      setTimeout(
        () =>
          send(
            200,
            "text/html; charset=utf-8",
            page("Slow", "<main><h1>Worth the wait</h1></main>"),
          ),
        2000,
      );
      return;
    }
    const make = PAGES[path];
    if (!make)
      return send(
        404,
        "text/html; charset=utf-8",
        page("Not found", "<main><h1>Not found</h1></main>"),
      );
    return send(200, "text/html; charset=utf-8", make());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({ origin: `http://127.0.0.1:${port}`, close: () => server.close() }),
    );
  });
}
