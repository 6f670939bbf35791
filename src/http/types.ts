import type { AuthContext } from "../accounts/auth";

/** Hono environment shared by every route and middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by the `authenticate` middleware on key-protected routes. */
    auth: AuthContext;
  };
}
