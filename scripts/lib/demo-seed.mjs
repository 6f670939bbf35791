// Demo accounts for `npm start`: one per plan, created through the admin API on first start
// and kept in the git-ignored .demo-keys.json (EDGESHOT_DEMO_KEYS overrides the path), keyed by
// the local storage directory, so a different --persist-to gets its own. Keys that still work
// are reused; the others are replaced. Each demo account also signs into the dashboard:
// `<plan>@demo.edgeshot.test` with one random password per storage directory, kept beside the
// keys and printed in the banner.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { adminClient, keyWorks } from "./admin-client.mjs";

export const DEMO_PLANS = ["free", "basic", "starter", "pro", "enterprise"];
/** The dashboard login of a demo account (a reserved .test name: no mail goes anywhere). */
export const demoEmail = (plan) => `${plan}@demo.edgeshot.test`;

function load(file) {
  if (!existsSync(file)) return {};
  try {
    const data = JSON.parse(readFileSync(file, "utf8"));
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/**
 * Ensures one working demo key and dashboard login per plan; returns
 * {accounts: {plan: {accountId, keyId, apiKey}}, password, created, path}.
 */
export async function seedDemoAccounts({ baseUrl, token, persistDir, file }) {
  const path = resolve(file ?? process.env.EDGESHOT_DEMO_KEYS ?? ".demo-keys.json");
  const store = load(path);
  const slot = resolve(persistDir);
  const known = store[slot]?.accounts ?? {};
  const api = adminClient({ baseUrl, token });
  const accounts = {};
  let created = 0;
  for (const plan of DEMO_PLANS) {
    const have = known[plan];
    if (have?.apiKey && (await keyWorks(baseUrl, have.apiKey))) {
      accounts[plan] = have;
      continue;
    }
    const made = await api.createAccount(plan, `Demo ${plan}`);
    accounts[plan] = { accountId: made.accountId, keyId: made.keyId, apiKey: made.apiKey };
    created += 1;
  }
  const password = store[slot]?.password ?? `demo-${randomBytes(9).toString("base64url")}`;
  // Set every start (idempotent): a login whose account was replaced follows it.
  for (const plan of DEMO_PLANS)
    await api.setLogin(accounts[plan].accountId, demoEmail(plan), password);
  store[slot] = { accounts, password };
  writeFileSync(path, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  return { accounts, password, created, path };
}

/**
 * The banner `npm start` prints: the keys, the dashboard, and curl lines that all work offline —
 * they capture the local demo site (`demo`, scripts/lib/demo-site.mjs); the public-URL line is
 * marked as needing the internet. `wantedPort` is the demo site's port asked for: when it was
 * taken, the banner says where the site went, and the `export` line the README's examples
 * read (`$KEY`, `$DEMO`) carries it.
 */
export function demoBanner(baseUrl, accounts, demo, password, wantedPort) {
  const pad = Math.max(...DEMO_PLANS.map((p) => p.length));
  const lines = ["", "Demo API keys (one account per plan):"];
  for (const plan of DEMO_PLANS) lines.push(`  ${plan.padEnd(pad)}  ${accounts[plan].apiKey}`);
  const key = accounts.pro.apiKey;
  const auth = `-H "Authorization: Bearer ${key}"`;
  const post = (path, body, out = "") =>
    `  curl ${out}${auth} -H "content-type: application/json" -d '${JSON.stringify(body)}' ${baseUrl}${path}`;
  lines.push(
    "",
    `Dashboard: ${baseUrl}/dashboard`,
    `  sign in as ${demoEmail("pro")}  password ${password}`,
    `  (every demo account: <plan>@demo.edgeshot.test, same password; or sign up for your own, on Free)`,
    `Demo site: ${demo}  (local pages to try everything offline)`,
    ...demoMoved(demo, wantedPort),
    `For the README's examples: export KEY=${key} DEMO=${demo}`,
    "",
    "Try it:",
    `  curl -o shot.png "${baseUrl}/v1/screenshot?url=${demo}/&key=${key}"`,
    `  curl -o article.pdf "${baseUrl}/v1/screenshot?url=${demo}/article&format=pdf&key=${key}"`,
    post("/v1/screenshot", { url: `${demo}/shop`, blockCookieBanners: true }, "-o shop.png "),
    post("/v1/extract", { url: `${demo}/article` }),
    post("/v1/links", { url: `${demo}/` }),
    post("/v1/map", { url: `${demo}/docs/` }),
    post("/v1/crawl", { url: `${demo}/docs/`, limit: 3 }),
    `  curl ${auth} ${baseUrl}/v1/account`,
    "",
    "With an internet connection, any public URL works too:",
    `    curl -o example.png "${baseUrl}/v1/screenshot?url=https://example.com&key=${key}"`,
    "Capture your own local app: add its host:port to TARGET_ALLOWLIST (README: Capture your local app).",
    "",
  );
  return lines.join("\n");
}

/** The loud lines of a demo site that is not on the port asked for (taken by something else). */
function demoMoved(demo, wantedPort) {
  const port = Number(new URL(demo).port);
  if (port === wantedPort) return [];
  return [
    `  ⚠ NOT ON PORT ${wantedPort}: it is taken, so the demo site is on ${port} (the first free of`,
    `    ${wantedPort}–${wantedPort + 9}; the same next time while the same ports are taken). The`,
    "    lines below use it; paste the export line before the README's examples.",
  ];
}
