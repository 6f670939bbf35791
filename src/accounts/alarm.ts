/**
 * The Account DO has ONE alarm; each of its users (the watch schedule today) says when it next
 * needs to run, and the alarm is set to the earliest of those times (deleted when none).
 */
export async function armAlarm(
  storage: DurableObjectStorage,
  dueTimes: ReadonlyArray<number | null>,
): Promise<void> {
  const due = dueTimes.filter((t): t is number => t !== null);
  if (due.length === 0) {
    await storage.deleteAlarm();
    return;
  }
  const earliest = Math.min(...due);
  const current = await storage.getAlarm();
  if (current !== earliest) await storage.setAlarm(earliest);
}
