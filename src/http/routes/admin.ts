/**
 * The admin API (Bearer ADMIN_TOKEN): create accounts and keys, revoke keys, change plans and
 * usage, read an account with its keys, give an account a dashboard login. `npm run admin` and `npm start`'s seeding use it.
 * Plain keys appear only in the 201 responses that create them; hashes never leave the DO.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Account } from "../../account-do/account";
import { accountIdForKey, accountStub, indexKey, mintKey } from "../../accounts/directory";
import { generateAccountId, isAccountId, isKeyId } from "../../accounts/keys";
import { PLAN_IDS } from "../../../schemas/responses";
import { upgradeFor } from "../../accounts/plans";
import { publicOrigin } from "../../storage/hosted";
import { credentialsFormSchema } from "../../../schemas/dashboard";
import { LIMITS } from "../../../schemas/limits";
import { hashPassword, isCommonPassword } from "../../accounts/passwords";
import { jsonBody } from "../body";
import { userByEmail } from "../dashboard/session";
import { successBody } from "../envelope";
import { ApiError, validationError } from "../../errors";
import { adminToken } from "../middleware/admin-token";
import type { AppEnv } from "../types";

const planSchema = z.enum(PLAN_IDS);

const createSchema = z.strictObject({
  plan: planSchema,
  name: z.string().trim().min(1).max(LIMITS.accountNameChars).optional(),
});

const updateSchema = z
  .strictObject({
    plan: planSchema.optional(),
    creditsUsed: z.number().int().min(0).max(1_000_000_000).optional(),
  })
  .refine((v) => v.plan !== undefined || v.creditsUsed !== undefined, {
    message: "Give plan and/or creditsUsed.",
  });

function notFound(what: string): ApiError {
  return new ApiError("NOT_FOUND", `${what} not found.`);
}

/** The stub of an existing account id (format checked before any DO is touched). */
function accountFor(env: Env, accountId: string): DurableObjectStub<Account> {
  if (!isAccountId(accountId)) throw notFound("Account");
  return accountStub(env, accountId);
}

export const adminRoutes = new Hono<AppEnv>()
  .use(adminToken())
  .post("/accounts", async (c) => {
    const input = await jsonBody(c, createSchema);
    const accountId = generateAccountId();
    const { apiKey, key } = await mintKey();
    const summary = await accountStub(c.env, accountId).create({
      accountId,
      plan: input.plan,
      name: input.name ?? null,
      key,
    });
    if (!summary) throw new ApiError("INTERNAL_ERROR", "Account id collision.");
    await indexKey(c.env, accountId, key);
    const data = { accountId, plan: summary.plan, name: summary.name, keyId: key.keyId, apiKey };
    return c.json(successBody(c.get("requestId"), data), 201);
  })
  .get("/accounts/:accountId", async (c) => {
    const account = accountFor(c.env, c.req.param("accountId"));
    const summary = await account.summary();
    if (!summary) throw notFound("Account");
    const keys = await account.keys().list();
    const data = {
      ...summary,
      upgrade: upgradeFor(summary.plan, publicOrigin(c.env, c.req.url)),
      keys,
    };
    return c.json(successBody(c.get("requestId"), data));
  })
  .patch("/accounts/:accountId", async (c) => {
    const account = accountFor(c.env, c.req.param("accountId"));
    const change = await jsonBody(c, updateSchema);
    const summary = await account.update(change);
    if (!summary) throw notFound("Account");
    return c.json(successBody(c.get("requestId"), summary));
  })
  .post("/accounts/:accountId/keys", async (c) => {
    const accountId = c.req.param("accountId");
    const account = accountFor(c.env, accountId);
    const { apiKey, key } = await mintKey();
    const info = await account.keys().add(key);
    if (!info) throw notFound("Account");
    await indexKey(c.env, accountId, key);
    return c.json(successBody(c.get("requestId"), { keyId: key.keyId, apiKey }), 201);
  })
  .put("/accounts/:accountId/login", async (c) => {
    // A dashboard login for an existing account (npm start's demo accounts, operators): the
    // signup form's rules for email and password; setting it again changes the password.
    const accountId = c.req.param("accountId");
    const account = accountFor(c.env, accountId);
    const { email, password } = await jsonBody(c, credentialsFormSchema);
    if (isCommonPassword(password)) throw validationError("password", "is too common.");
    if (!(await account.summary())) throw notFound("Account");
    const result = await userByEmail(c.env, email).claim(
      email,
      accountId,
      await hashPassword(password),
    );
    if (result === "taken") {
      throw validationError("email", "already signs into another account.");
    }
    return c.json(
      successBody(c.get("requestId"), { accountId, email }),
      result === "created" ? 201 : 200,
    );
  })
  .post("/keys/:keyId/revoke", async (c) => {
    const keyId = c.req.param("keyId");
    const accountId = isKeyId(keyId) ? await accountIdForKey(c.env, keyId) : null;
    if (!accountId) throw notFound("Key");
    const info = await accountStub(c.env, accountId).keys().revoke(keyId);
    if (!info) throw notFound("Key");
    return c.json(successBody(c.get("requestId"), { accountId, ...info }));
  });
