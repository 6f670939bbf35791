// The service Chromium's stderr, filtered on its way to miniflare (bench/README.md, "CDP round
// trips and --cdp-rtt"): the wrapper that bench/lib/cdp-rtt.mjs writes runs Chromium with its
// stderr through this script. The "DevTools listening on ws://127.0.0.1:<port>/…" line miniflare
// reads its endpoint from is rewritten to a CDP proxy listener forwarding to <port>, so the local
// browser binding (workerd) talks to Chromium through the proxy. Every other line passes as is.
// Usage: node bench/cdp-filter.mjs <proxy control port>   (stdin: Chromium's stderr)
const control = Number(process.argv[2]);
const DEVTOOLS = /^DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)(\/.*)$/;

let buffered = "";
let chain = Promise.resolve();
process.stdin.setEncoding("utf8");
process.stdin.on("data", (data) => {
  buffered += data;
  const lines = buffered.split("\n");
  buffered = lines.pop();
  for (const line of lines) chain = chain.then(() => rewrite(line)).then((l) => out(`${l}\n`));
});
process.stdin.on("end", () => {
  chain = chain.then(() => buffered && out(buffered));
});

function out(text) {
  return new Promise((resolve) => process.stdout.write(text, resolve));
}

async function rewrite(line) {
  const m = DEVTOOLS.exec(line);
  if (!m) return line;
  try {
    const res = await fetch(`http://127.0.0.1:${control}/listen?system=edgeshot&target=${m[1]}`, {
      method: "POST",
      signal: AbortSignal.timeout(10_000),
    });
    const { port } = await res.json();
    return `DevTools listening on ws://127.0.0.1:${port}${m[2]}`;
  } catch (err) {
    process.stdout.write(`[cdp-filter] proxy not reached (${err.message}): direct connection\n`);
    return line;
  }
}
