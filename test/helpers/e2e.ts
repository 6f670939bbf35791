/**
 * End-to-end plumbing (node side): a free port, a `wrangler dev` of this worker on it with its own
 * storage and test secrets, and a clean stop of its whole process group.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_SECRETS } from "../../vitest.config";

export const ROOT = join(import.meta.dirname, "../..");
export const BIN = join(ROOT, "node_modules/.bin");
export const FIXTURE_ORIGIN = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 4010}`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export interface Service {
  base: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** `wrangler dev` on free ports, own persist dir, test secrets and the fixture allowlist. */
export async function startService(extraVars: Record<string, string> = {}): Promise<Service> {
  const [port, inspector] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), "edgeshot-e2e-"));
  const vars = {
    ...TEST_SECRETS,
    // wrangler.toml ships the production pool (8 browsers); one shares the test machine's cores.
    BROWSER_HOSTS: "1",
    TARGET_ALLOWLIST: new URL(FIXTURE_ORIGIN).host,
    ...extraVars,
  };
  const args = [
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(inspector),
    "--persist-to",
    join(dir, "state"),
    "--show-interactive-dev-session=false",
    ...Object.entries(vars).flatMap(([k, v]) => (v ? ["--var", `${k}:${v}`] : [])),
  ];
  const child = spawn(join(BIN, "wrangler"), args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PATH: `${BIN}:${process.env.PATH}` },
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, child, output: () => out, stop };
}

/** Creates an account through the admin API of a started service. */
export async function createAccount(
  base: string,
  plan: string,
): Promise<{ accountId: string; apiKey: string }> {
  const res = await fetch(`${base}/admin/accounts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ plan }),
  });
  const body = (await res.json()) as { data: { accountId: string; apiKey: string } };
  return body.data;
}

/** Sends raw bytes (then half-closes unless `keepOpen`) and returns what the server answers. */
export function rawHttp(
  port: number,
  bytes: Buffer,
  { keepOpen = false, timeoutMs = 5000 } = {},
): Promise<string> {
  return new Promise((resolve) => {
    let reply = "";
    const socket = connect(port, "127.0.0.1", () =>
      keepOpen ? socket.write(bytes) : socket.end(bytes),
    );
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${reply}<timeout>`);
    }, timeoutMs);
    socket.on("data", (d: Buffer) => (reply += d.toString("latin1")));
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(reply);
    });
    socket.on("error", (err) => {
      clearTimeout(timer);
      resolve(`${reply}<${err.message}>`);
    });
  });
}
