/**
 * The features the Account DO composes over its one database (account.ts): the account's keys
 * and credit ledger (src/accounts/), and the features that keep their table(s), transitions and
 * reads in their own folder. Webhook deliveries rebuild their event
 * bodies from the subjects the jobs, watches, crawls and monitors features own, wired here so that
 * src/webhooks/ imports neither.
 */
import { KeyStore } from "../accounts/keystore";
import { checkProgress, forgetCheck, monitorEventBody } from "../monitors/checks";
import { MonitorsStore } from "../monitors/store";
import { CrawlsStore, crawlEventBody } from "../crawl/store";
import { CreditLedger } from "../accounts/ledger";
import { RequestLog } from "../accounts/request-log";
import type { AccountDb } from "../accounts/store";
import { IdempotencyKeys } from "../idempotency/store";
import { JobsStore } from "../jobs/store/jobs";
import { getBatch, getJob } from "../jobs/store/read";
import { DestinationStore } from "../storage/destination-store";
import { runEventSubject } from "../watches/store/runs-read";
import { WatchesStore } from "../watches/store/store";
import { batchEvent, jobEvent, watchEvent } from "../webhooks/events";
import { type EventBody, WebhookDeliveries } from "../webhooks/store/deliveries";

export interface AccountFeatures {
  keys: KeyStore;
  credits: CreditLedger;
  jobs: JobsStore;
  watches: WatchesStore;
  webhooks: WebhookDeliveries;
  crawls: CrawlsStore;
  monitors: MonitorsStore;
  destinations: DestinationStore;
  idempotency: IdempotencyKeys;
  requests: RequestLog;
}

export function composeFeatures(db: AccountDb): AccountFeatures {
  const eventBody: EventBody = (kind, id, event) => {
    if (kind === "run") {
      const subject = runEventSubject(db.sql, id);
      return subject ? watchEvent(event, subject) : null;
    }
    if (kind === "crawl") return crawlEventBody(db.sql, id);
    if (kind === "monitor") return monitorEventBody(db.sql, id);
    if (kind === "job") {
      const job = getJob(db.sql, id);
      return job ? jobEvent(event, job) : null;
    }
    const batch = getBatch(db.sql, id);
    return batch ? batchEvent(event, batch) : null;
  };
  return {
    keys: new KeyStore(db),
    credits: new CreditLedger(db),
    jobs: new JobsStore(db),
    watches: new WatchesStore(db),
    webhooks: new WebhookDeliveries(db, eventBody),
    crawls: new CrawlsStore(db, { progress: checkProgress, forget: forgetCheck }),
    monitors: new MonitorsStore(db),
    destinations: new DestinationStore(db),
    idempotency: new IdempotencyKeys(db),
    requests: new RequestLog(db),
  };
}
