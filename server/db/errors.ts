// Database error kinds recognised by their driver codes (never by message text alone), the same on
// SQLite and PostgreSQL.

interface DriverError {
  code?: string;
  message?: string;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as DriverError;
  if (e?.code === '23505') return true; // PostgreSQL unique_violation
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Errors worth retrying the whole transaction for: SQLite busy, PostgreSQL serialization/deadlock. */
export function isTransientConflict(err: unknown): boolean {
  const code = (err as DriverError)?.code;
  return code === 'SQLITE_BUSY' || code === '40001' || code === '40P01';
}
