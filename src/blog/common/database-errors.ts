import { QueryFailedError } from 'typeorm';

interface DriverError {
  code?: string;
  constraint?: string;
  message?: string;
}

/**
 * True when a statement failed on a unique index; `column` narrows it to the index on that
 * column (PostgreSQL names the constraint, SQLite names the columns).
 */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as DriverError;
  const unique = driverError.code === '23505' || driverError.code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!unique || column === undefined) return unique;
  return (
    (driverError.constraint?.includes(column) ?? false) ||
    (driverError.message?.includes(`.${column}`) ?? false)
  );
}
