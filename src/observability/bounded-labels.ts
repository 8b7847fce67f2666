/**
 * Label values for a metric, at most `max` distinct ones; later values share `overflow`, so
 * that clients that make up operation names cannot grow the series without bound.
 */
export class BoundedLabels {
  private readonly seen = new Set<string>();

  constructor(
    private readonly max: number,
    private readonly overflow = 'other',
    private readonly maxLength = 100,
  ) {}

  /** `value`'s label; a value not seen before gets one of its own only when `admit` is true. */
  label(value: string, admit = true): string {
    if (this.seen.has(value)) return value;
    if (!admit || this.seen.size >= this.max || value.length > this.maxLength) return this.overflow;
    this.seen.add(value);
    return value;
  }
}
