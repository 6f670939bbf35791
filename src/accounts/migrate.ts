/**
 * Brings a Durable Object's SQLite database up to date. `schema_version` holds the number of
 * migrations applied; each migration runs once, all pending ones in a single transaction.
 */

/** A migration: SQL statements run in order. */
export type Migration = readonly string[];

/** Applies the migrations not yet applied; returns the resulting schema version. */
export function migrate(storage: DurableObjectStorage, migrations: readonly Migration[]): number {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
    const current = row?.version ?? 0;
    if (current > migrations.length) {
      throw new Error(`stored schema v${current} is newer than this code (v${migrations.length})`);
    }
    for (const migration of migrations.slice(current)) {
      for (const statement of migration) sql.exec(statement);
    }
    if (!row) sql.exec("INSERT INTO schema_version (version) VALUES (?)", migrations.length);
    else if (current < migrations.length) {
      sql.exec("UPDATE schema_version SET version = ?", migrations.length);
    }
    return migrations.length;
  });
}
