import { v7 } from 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new time-ordered id: sorting ids sorts by creation. */
export function newId(): string {
  return v7();
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
