import { v7 } from 'uuid';

/** A new time-ordered id: sorting ids sorts by creation. */
export function newId(): string {
  return v7();
}

/**
 * Whether an id argument has the form of an id, checked before it reaches a statement: any
 * RFC 9562 UUID (versions 1 to 8 with the RFC variant, and the nil and max UUIDs), in either
 * case. Every id the service issues is a v7; one of another version matches no row, as an id
 * that was deleted does, so it is not refused for its version.
 */
export { validate as isUuid } from 'uuid';
