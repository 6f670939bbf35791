/**
 * Stands in for `ajv` and `ajv-formats` in the Worker bundle (wrangler.toml `[alias]`). The MCP
 * SDK's server imports its Ajv validator statically, but our server is built with the
 * @cfworker/json-schema validator (src/http/mcp/route.ts), so Ajv is never constructed: bundling
 * it cost ~60 kB of the gzipped upload. Constructing this stand-in fails loudly instead of
 * validating nothing.
 */
export default class AjvNotBundled {
  constructor() {
    throw new Error("ajv is not bundled: the MCP server validates with @cfworker/json-schema");
  }
}
