/**
 * A dashboard session for tests: signs up a fresh user (a Free account) through the forms and
 * posts to the playground endpoints with the session's cookie and CSRF token.
 */
import { BASE, call } from "./http";

let n = 0;

export interface DashboardSession {
  cookie: string;
  csrf: string;
  capture: (body: unknown) => Promise<Response>;
  renderLink: (body: unknown) => Promise<Response>;
  /** A page content action of the playground (content, scrape, links, snapshot). */
  pageAction: (action: string, body: unknown) => Promise<Response>;
}

export async function dashboardSession(): Promise<DashboardSession> {
  const email = `test-${Date.now()}-${++n}@example.com`;
  const signup = await call("/dashboard/signup", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams({ email, password: "correct horse battery" }).toString(),
    redirect: "manual",
  });
  const cookie = /(__Secure-edgeshot_session=[^;]+)/.exec(
    signup.headers.get("set-cookie") ?? "",
  )?.[1];
  if (signup.status !== 303 || !cookie) throw new Error(`signup: ${signup.status}`);
  const page = await (await call("/dashboard/playground", { headers: { cookie } })).text();
  const csrf = /data-csrf="([0-9a-f]{64})"/.exec(page)?.[1];
  if (!csrf) throw new Error("playground page without its CSRF token");
  const api = (path: string) => (body: unknown) =>
    call(`/dashboard/api/${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        origin: BASE,
        cookie,
        "x-csrf-token": csrf,
      },
      body: JSON.stringify(body),
    });
  return {
    cookie,
    csrf,
    capture: api("capture"),
    renderLink: api("render-link"),
    pageAction: (action, body) => api(`page/${action}`)(body),
  };
}
