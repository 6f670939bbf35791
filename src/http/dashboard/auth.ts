/**
 * Signup, login and logout. Signup makes an account on the Free plan with its first key, which
 * the next page shows once. Login is throttled per email (in the user's DO) and per client
 * address (a LoginThrottle DO): 429 with Retry-After past the limit.
 */
import { Hono, type Context } from "hono";
import { html } from "hono/html";
import { credentialsFormSchema } from "../../../schemas/dashboard";
import { LIMITS } from "../../../schemas/limits";
import { accountStub, indexKey, mintKey } from "../../accounts/directory";
import { generateAccountId } from "../../accounts/keys";
import { hashPassword, isCommonPassword } from "../../accounts/passwords";
import { sha256Hex } from "../../encoding";
import { type Html, notice, page } from "./layout";
import {
  DASHBOARD,
  type DashboardEnv,
  checkCsrf,
  clearSessionCookie,
  readSession,
  requireSession,
  setSessionCookie,
  userByEmail,
} from "./session";
import { formField, formRecord } from "./forms";

/** Emails are compared trimmed and lower-cased (one account per address, whatever the case). */
const normaliseEmail = (raw: string): string => raw.trim().toLowerCase();
const LABELS: Record<string, string> = { email: "Email", password: "Password" };

interface CredentialsForm {
  action: "signup" | "login";
  email: string;
  errors: string[];
}

function credentialsForm(f: CredentialsForm): Html {
  const signup = f.action === "signup";
  return html`${f.errors.map((e) => notice("error", e))}
    <form method="post" action="${DASHBOARD}/${f.action}" class="card narrow">
      <label
        >Email
        <input
          type="email"
          name="email"
          required
          maxlength="${LIMITS.emailChars}"
          autocomplete="email"
          value="${f.email}"
      /></label>
      <label
        >Password
        <input
          type="password"
          name="password"
          required
          minlength="${signup ? LIMITS.passwordMinChars : 1}"
          maxlength="${LIMITS.passwordMaxChars}"
          autocomplete="${signup ? "new-password" : "current-password"}"
      /></label>
      ${
        signup
          ? html`<p class="hint">
              At least ${LIMITS.passwordMinChars} characters; common passwords are refused.
            </p>`
          : ""
      }
      <button type="submit">${signup ? "Create account" : "Sign in"}</button>
    </form>
    <p>
      ${
        signup
          ? html`Already have an account? <a href="${DASHBOARD}/login">Sign in</a>`
          : html`New here? <a href="${DASHBOARD}/signup">Create an account</a> — the Free plan, no
              card.`
      }
    </p>`;
}

function credentialsPage(
  c: Context,
  f: CredentialsForm,
  status: 200 | 400 | 401 | 409 | 429 = 200,
): Response | Promise<Response> {
  const title = f.action === "signup" ? "Create your account" : "Sign in";
  return page(c, { title, body: credentialsForm(f), status });
}

const clientAddress = (c: Context): string => c.req.header("cf-connecting-ip") ?? "unknown";

export const authRoutes = new Hono<DashboardEnv>()
  .get("/", async (c) =>
    c.redirect(`${DASHBOARD}/${(await readSession(c)) ? "usage" : "login"}`, 303),
  )
  .get("/signup", (c) => credentialsPage(c, { action: "signup", email: "", errors: [] }))
  .post("/signup", async (c) => {
    const form = await formRecord(c);
    const parsed = credentialsFormSchema.safeParse({
      email: formField(form, "email"),
      password: formField(form, "password"),
    });
    const errors = parsed.success
      ? []
      : parsed.error.issues.map((i) => `${LABELS[String(i.path[0])] ?? "Form"}: ${i.message}.`);
    if (parsed.success && isCommonPassword(parsed.data.password)) {
      errors.push("Password: is too common; choose another.");
    }
    const email = parsed.success ? parsed.data.email : normaliseEmail(formField(form, "email"));
    if (!parsed.success || errors.length > 0) {
      return credentialsPage(c, { action: "signup", email, errors }, 400);
    }
    const { password } = parsed.data;

    const accountId = generateAccountId();
    const { apiKey, key } = await mintKey("Default");
    const user = userByEmail(c.env, email);
    if (!(await user.register(email, accountId, await hashPassword(password)))) {
      const taken = "Email: an account with this address already exists; sign in instead.";
      return credentialsPage(c, { action: "signup", email, errors: [taken] }, 409);
    }
    const account = accountStub(c.env, accountId);
    await account.create({ accountId, plan: "free", name: email, key });
    await indexKey(c.env, accountId, key);
    const token = await user.startSession();
    await user.holdReveal(await sha256Hex(token), apiKey);
    setSessionCookie(c, user.id.toString(), token);
    return c.redirect(`${DASHBOARD}/keys`, 303);
  })
  .get("/login", (c) => credentialsPage(c, { action: "login", email: "", errors: [] }))
  .post("/login", async (c) => {
    const form = await formRecord(c);
    const email = normaliseEmail(formField(form, "email")).slice(0, LIMITS.emailChars);
    const password = formField(form, "password").slice(0, LIMITS.passwordMaxChars);
    const throttle = c.env.LOGIN_THROTTLE.get(c.env.LOGIN_THROTTLE.idFromName(clientAddress(c)));
    const tooMany = (retryAfter: number) => {
      c.header("retry-after", String(retryAfter));
      const errors = [`Too many sign-in attempts; try again in ${retryAfter} s.`];
      return credentialsPage(c, { action: "login", email, errors }, 429);
    };
    const addressWait = await throttle.retryAfter();
    if (addressWait > 0) return tooMany(addressWait);
    const user = userByEmail(c.env, email);
    const result = await user.login(password);
    if (result.status === "throttled") return tooMany(result.retryAfter);
    if (result.status === "wrong") {
      await throttle.fail();
      const errors = ["Wrong email or password."];
      return credentialsPage(c, { action: "login", email, errors }, 401);
    }
    setSessionCookie(c, user.id.toString(), result.token);
    return c.redirect(`${DASHBOARD}/usage`, 303);
  })
  .post("/logout", requireSession, async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const session = c.get("session");
    await session.user.endSession(session.tokenHash);
    clearSessionCookie(c);
    return c.redirect(`${DASHBOARD}/login`, 303);
  });
