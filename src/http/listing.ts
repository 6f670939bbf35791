/**
 * Listings, every one alike: a list query's paging as a store takes it (`status`, `limit` with
 * its default, `before` the cursor's position), and a store's page as the answer
 * `{items, nextCursor}` — the cursor naming its listing, so one listing's cursor is refused by
 * another (schemas/jobs.ts).
 */
import { encodeCursor, type CursorKind } from "../../schemas/jobs";
import { LIMITS } from "../../schemas/limits";
import type { Listing } from "../../schemas/responses";

export interface ListQuery<S> {
  status?: S;
  limit?: number;
  cursor?: number;
}

export function paging<S>(q: ListQuery<S>): {
  status: S | null;
  limit: number;
  before: number | null;
} {
  return {
    status: q.status ?? null,
    limit: q.limit ?? LIMITS.listDefault,
    before: q.cursor ?? null,
  };
}

export function listing<T>(
  kind: CursorKind,
  page: { items: T[]; nextBefore: number | null },
): Listing<T> {
  return {
    items: page.items,
    nextCursor: page.nextBefore === null ? null : encodeCursor(kind, page.nextBefore),
  };
}
