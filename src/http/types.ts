import type { AuthContext } from "../accounts/auth";
import type { ErrorCode } from "../errors";

/** Hono environment shared by every route and middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by the `authenticate` middleware on key-protected routes. */
    auth: AuthContext;
    /** Credits the request spent (`charged` in ./envelope.ts), for the request log. */
    charged: number;
    /** A JSON body as sent (parsed, before validation), for a handler that keeps its fields. */
    sentBody: unknown;
    /** The error code answered (the app's onError), for the request log. */
    errorCode: ErrorCode;
  };
}
