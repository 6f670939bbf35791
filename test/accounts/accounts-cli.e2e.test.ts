/**
 * End to end: `npm start` (scripts/start.mjs → wrangler dev) on a free port with its own
 * storage, its demo-account seeding, and the `npm run admin` CLI against it. The demo site's
 * port (EDGESHOT_DEMO_PORT here, 8788 by default) is taken before the start, as another program
 * of the machine would: the site moves to the next free port, the same on the next start.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRETS } from "../../vitest.config";
import { BIN, freePort, rawHttp, ROOT } from "../helpers/e2e";

const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Starts `node scripts/start.mjs …` in its own process group; resolves once the keys are printed. */
async function start(
  port: number,
  inspector: number,
  persistDir: string,
  keysFile: string,
  demoPort: number,
): Promise<Started> {
  const vars = Object.entries(TEST_SECRETS).flatMap(([k, v]) => (v ? ["--var", `${k}:${v}`] : []));
  const args = [
    "scripts/start.mjs",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(inspector),
    "--persist-to",
    persistDir,
    "--show-interactive-dev-session=false",
    ...vars,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PATH: `${BIN}:${process.env.PATH}`,
      EDGESHOT_DEMO_KEYS: keysFile,
      EDGESHOT_DEMO_PORT: String(demoPort),
      ADMIN_TOKEN: "",
    },
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/Try it:[\s\S]*kept in/.test(out)) done(resolve);
      else if (child.exitCode !== null || /not seeded/.test(out))
        done(() => reject(new Error(out)));
    }, 200);
    const done = (fn: () => void) => {
      clearInterval(timer);
      fn();
    };
  });
  return { child, output: () => out };
}

async function stop(started: Started | undefined): Promise<void> {
  const pid = started?.child.pid;
  if (!pid || started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once("exit", resolve));
  process.kill(-pid, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (started.child.exitCode === null) process.kill(-pid, "SIGKILL");
}

describe("npm start and npm run admin", () => {
  const dir = mkdtempSync(join(tmpdir(), "edgeshot-e2e-"));
  const keysFile = join(dir, "demo-keys.json");
  const persistDir = join(dir, "state");
  let base = "";
  let server: Started | undefined;
  let ports: [number, number] = [0, 0];
  /** The demo site's port asked for, taken by another program before `npm start`. */
  let demoWanted = 0;
  let blocker: Server | undefined;
  const demoLine = (out: string) => /Demo site: (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);

  const cli = async (...args: string[]) => {
    const env = { ...process.env, EDGESHOT_URL: base, ADMIN_TOKEN: TEST_SECRETS.ADMIN_TOKEN };
    try {
      const { stdout } = await run(process.execPath, ["scripts/admin.mjs", ...args], {
        cwd: ROOT,
        env,
      });
      return { code: 0, stdout, stderr: "" };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const credentialCheck = (key: string) =>
    fetch(`${base}/v1/credential-check`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    ports = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${ports[0]}`;
    demoWanted = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(demoWanted, "127.0.0.1", resolve));
    blocker = taken;
    server = await start(ports[0], ports[1], persistDir, keysFile, demoWanted);
  });

  afterAll(async () => {
    await stop(server);
    blocker?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("seeds one working demo account per plan and prints the keys with curl lines", async () => {
    const stored = JSON.parse(readFileSync(keysFile, "utf8")) as Record<
      string,
      { accounts: Record<string, { apiKey: string }> }
    >;
    const accounts = stored[persistDir]?.accounts ?? {};
    expect(Object.keys(accounts)).toEqual(["free", "basic", "starter", "pro", "enterprise"]);
    const out = server?.output() ?? "";
    for (const [plan, { apiKey }] of Object.entries(accounts)) {
      expect(out).toContain(apiKey);
      const data = ((await (await credentialCheck(apiKey)).json()) as { data: { plan: string } })
        .data;
      expect(data.plan).toBe(plan);
    }
    expect(out).toContain(
      `curl -H "Authorization: Bearer ${accounts.pro?.apiKey}" ${base}/v1/account`,
    );
    expect(out).toContain(
      `curl -o example.png "${base}/v1/screenshot?url=https://example.com&key=${accounts.pro?.apiKey}"`,
    );
  });

  it("every curl line under 'Try it:' works offline, against the local demo site", async () => {
    const out = server?.output() ?? "";
    const tryIt = out.slice(out.indexOf("Try it:")).split("\n\n")[0] ?? "";
    const lines = tryIt
      .split("\n")
      .slice(1)
      .map((l) => l.trim());
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) {
      expect(line).toMatch(/^curl /);
      expect(line).not.toMatch(/https:\/\//); // nothing of the internet
      const { stdout } = await run("sh", ["-c", `${line} --fail --silent --show-error`], {
        cwd: dir,
      });
      if (!line.includes(" -o ")) expect(JSON.parse(stdout), line).toMatchObject({ success: true });
    }
    const head = (file: string, n: number) => readFileSync(join(dir, file)).subarray(0, n);
    expect([...head("shot.png", 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect([...head("shop.png", 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(head("article.pdf", 5).toString()).toBe("%PDF-");
  });

  it("wrangler's startup says nothing we can prevent (docs/LOCAL-DEV.md)", () => {
    const out = server?.output() ?? "";
    expect(out).toContain("Ready on");
    // Not "types might be out of date": wrangler's check counts the secrets of .dev.vars, which
    // `npm start`'s prestart writes and this test (scripts/start.mjs, secrets as --var) has not.
    expect(out).not.toMatch(/ENOTFOUND|cf\.json/);
  });

  it("its port taken, the demo site moves to the next free one and the banner says so", () => {
    const out = server?.output() ?? "";
    const port = Number(demoLine(out)?.[2]);
    expect(port).toBeGreaterThan(demoWanted);
    expect(port).toBeLessThan(demoWanted + 10);
    expect(out).toContain(`NOT ON PORT ${demoWanted}: it is taken, so the demo site is on ${port}`);
    expect(out).toContain(`DEMO=http://127.0.0.1:${port}`);
  });

  it("the README's demo-site lines work after the banner's export line", async () => {
    const out = server?.output() ?? "";
    const exported = /For the README's examples: (export KEY=\S+ DEMO=\S+)/.exec(out)?.[1];
    expect(exported).toBeDefined();
    // The README's block that starts with the export line: its curl lines, against this service.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block =
      readme.slice(readme.indexOf("    export KEY=svc_... DEMO=")).split("\n\n")[0] ?? "";
    const curls = block.split("\n").slice(1).join("\n").replaceAll("http://localhost:8787", base);
    expect(curls.match(/^ {4}curl /gm)).toHaveLength(3);
    const script = `set -e\ncurl() { command curl --fail --silent --show-error -w "\\n" "$@"; }\n${exported}\n${curls}\n`;
    const { stdout } = await run("sh", ["-c", script], { cwd: dir });
    const answers = stdout.split("\n").filter(Boolean);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(JSON.parse(answer)).toMatchObject({ success: true });
    expect([...readFileSync(join(dir, "shot.png")).subarray(0, 4)]).toEqual([
      0x89, 0x50, 0x4e, 0x47,
    ]);
  });

  it("the banner's dashboard login signs into the Pro demo account", async () => {
    const out = server?.output() ?? "";
    const [, email, password] = /sign in as (\S+) +password (\S+)/.exec(out) ?? [];
    expect(email).toBe("pro@demo.edgeshot.test");
    const res = await fetch(`${base}/dashboard/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: email ?? "", password: password ?? "" }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/usage");
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const usage = await (await fetch(`${base}/dashboard/usage`, { headers: { cookie } })).text();
    expect(usage).toContain('data-testid="plan">Pro<');
    const free = await fetch(`${base}/dashboard/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: "free@demo.edgeshot.test", password: password ?? "" }),
      redirect: "manual",
    });
    expect(free.status).toBe(303);
  });

  it("the CLI creates, shows, changes and revokes", async () => {
    const created = await cli("create-account", "--plan", "basic", "--name", "CLI test", "--json");
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout) as {
      accountId: string;
      keyId: string;
      apiKey: string;
      plan: string;
    };
    expect(account.plan).toBe("basic");
    expect((await credentialCheck(account.apiKey)).status).toBe(200);

    const added = await cli("add-key", account.accountId);
    expect(added.stdout).toMatch(/API key: svc_[0-9A-Za-z]{43}/);

    expect((await cli("set-plan", account.accountId, "pro")).stdout).toContain("plan pro");
    expect((await cli("set-usage", account.accountId, "1234")).stdout).toMatch(
      /1,234 of 25,000 credits used/,
    );

    const revoked = await cli("revoke", account.keyId);
    expect(revoked.stdout).toContain(`Revoked ${account.keyId}`);
    expect((await credentialCheck(account.apiKey)).status).toBe(403);

    const shown = await cli("show", account.accountId);
    expect(shown.stdout).toContain('"CLI test": plan pro');
    expect(shown.stdout).toMatch(new RegExp(`${account.keyId}\\s+svc_\\w{4}…\\s+revoked`));
    expect(shown.stdout).not.toContain(account.apiKey);
  });

  it("the CLI reports API errors and bad usage with a non-zero exit", async () => {
    const missing = await cli("show", "acc_0000000000000000000000");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("NOT_FOUND");
    expect((await cli("create-account", "--plan", "gold")).code).toBe(2);
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("raw non-Latin-1 bytes in the key headers → 401 INVALID_API_KEY, never a 500", async () => {
    for (const header of ["Authorization: Bearer svc_", "x-api-key: svc_"]) {
      const head = Buffer.from(`GET /v1/credential-check HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}`);
      const tail = Buffer.from("\r\nConnection: close\r\n\r\n");
      const reply = await rawHttp(
        ports[0],
        Buffer.concat([head, Buffer.from("€ü漢字", "utf8"), tail]),
      );
      expect(reply).toMatch(/^HTTP\/1\.1 401/);
      expect(reply).toContain("INVALID_API_KEY");
    }
  });

  it("a second start with the same storage reuses the same demo keys", async () => {
    const before = readFileSync(keysFile, "utf8");
    await stop(server);
    const demo = demoLine(server?.output() ?? "")?.[1];
    server = await start(ports[0], ports[1], persistDir, keysFile, demoWanted);
    expect(server.output()).not.toMatch(/created \d+/);
    expect(demoLine(server.output())?.[1]).toBe(demo); // the same port while the same are taken
    expect(readFileSync(keysFile, "utf8")).toBe(before);
  });
});
