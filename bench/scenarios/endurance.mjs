// The endurance run (bench/README.md, `--endurance N`): many small-page captures at c=4 on the
// service alone, its Chromium's idle RSS read after warm-up and after every ENDURANCE_STEP
// captures — flat means no leak.
import { runBatch } from "../lib/batch.mjs";
import { log, samplerReport, sleep } from "../lib/lifecycle.mjs";
import { mb, summarize } from "../lib/stats.mjs";

/** Idle RSS is read after every this many endurance captures. */
const ENDURANCE_STEP = 250;

/**
 * The endurance run: `total` small-page captures at c=4, in steps of ENDURANCE_STEP, the
 * service Chromium's idle RSS (after 1 s of quiet, like the repetitions') read before the first
 * step and after each one.
 */
export async function runEndurance(service, scenario, total) {
  const idleRssMb = async () => {
    await sleep(1000);
    const r = await samplerReport(true);
    return mb(r.snapshot.rss.service);
  };
  log(`endurance: ${total} small-page captures at c=4 …`);
  const series = [{ captures: 0, idleRssMb: await idleRssMb() }];
  const latencies = [];
  let wallMs = 0;
  for (let done = 0; done < total;) {
    const n = Math.min(ENDURANCE_STEP, total - done);
    const r = await runBatch(() => service.capture(scenario), n, 4);
    latencies.push(...r.latencies);
    wallMs += r.wallMs;
    done += n;
    series.push({ captures: done, idleRssMb: await idleRssMb() });
    log(`  endurance ${done}/${total}: idle RSS ${series.at(-1).idleRssMb} MB`);
  }
  return { captures: total, conc: 4, ...summarize(latencies, wallMs), series };
}
