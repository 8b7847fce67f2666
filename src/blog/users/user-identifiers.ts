import { Transform } from 'class-transformer';

/**
 * The one form in which an email or a handle is validated, stored and looked up: Unicode NFKC
 * (so full-width `ＡＤＡ@example.com` or a Kelvin sign `K` read as their plain letters),
 * lower-case and trimmed. Two spellings that a person would read as the same account are the
 * same string, so the unique indexes on `email` and `handle` see them as one.
 */
export function canonicalIdentifier(value: string): string {
  // Lower-casing can leave a sequence that NFKC would compose, hence the second pass.
  return value.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

/** Puts an email or handle input in its canonical form before it is validated. */
export const CanonicalIdentifier = () =>
  Transform(({ value }) => (typeof value === 'string' ? canonicalIdentifier(value) : value));
