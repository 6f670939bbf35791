// What `npm run openapi` gives the worker's modules for `cloudflare:workers` under Node: the
// base classes they extend, empty. Building the app only defines classes; nothing runs them.
export class DurableObject {}
export class RpcTarget {}
export class WorkerEntrypoint {}
