import { performance } from 'node:perf_hooks';

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

/** How a use of an operation name counts for its label. */
export interface NameUse {
  /** The operation passed validation: only such names may take a label. */
  valid: boolean;
  /** A signed-in user sent it: their names outrank those of anonymous clients. */
  signedIn: boolean;
}

interface Slot {
  score: number;
  at: number;
  signedIn: boolean;
}

/**
 * Labels for operation names, at most `max` besides the pinned ones, held by names the service
 * has reason to trust rather than by the first ones anyone sent:
 *
 * - pinned names (those of the trusted documents) always have their own;
 * - the others hold a slot by recent use: each use adds one to a name's score, which halves every
 *   `halfLifeMs`; a name without a slot takes the lowest-scored one when it outranks it, that is
 *   when its holder was only ever used anonymously and the newcomer is signed in, or when the
 *   holder's score has decayed below one fresh use.
 *
 * So names made up once each fade at once, and cannot push out a name in steady use; an
 * anonymous client never pushes out a name signed-in users send. A name that loses its slot is
 * passed to `evicted`, so its series can be removed.
 */
export class OperationNameLabels {
  private readonly slots = new Map<string, Slot>();
  private readonly pinned: ReadonlySet<string>;
  private readonly halfLifeMs: number;
  private readonly now: () => number;
  private readonly evicted: (name: string) => void;
  private readonly overflow: string;
  private readonly maxLength: number;

  constructor(
    private readonly max: number,
    options: {
      pinned?: Iterable<string>;
      halfLifeMs?: number;
      now?: () => number;
      evicted?: (name: string) => void;
      overflow?: string;
      maxLength?: number;
    } = {},
  ) {
    this.pinned = new Set(options.pinned ?? []);
    this.halfLifeMs = options.halfLifeMs ?? 10 * 60_000;
    this.now = options.now ?? (() => performance.now());
    this.evicted = options.evicted ?? (() => undefined);
    this.overflow = options.overflow ?? 'other';
    this.maxLength = options.maxLength ?? 100;
  }

  /** `name`'s label for one use of it. */
  label(name: string, use: NameUse): string {
    if (this.pinned.has(name)) return name;
    const now = this.now();
    const held = this.slots.get(name);
    if (held) {
      held.score = this.decayed(held, now) + 1;
      held.at = now;
      held.signedIn ||= use.signedIn;
      return name;
    }
    if (!use.valid || name.length > this.maxLength) return this.overflow;
    if (this.slots.size >= this.max && !this.freeSlotFor(use, now)) return this.overflow;
    this.slots.set(name, { score: 1, at: now, signedIn: use.signedIn });
    return name;
  }

  /** Frees the weakest slot if a new name of `use` outranks its holder. */
  private freeSlotFor(use: NameUse, now: number): boolean {
    let weakest: [string, Slot, number] | undefined;
    for (const [name, slot] of this.slots) {
      const score = this.decayed(slot, now);
      if (!weakest || rank(slot, score) < rank(weakest[1], weakest[2])) {
        weakest = [name, slot, score];
      }
    }
    if (!weakest) return false;
    const [name, slot, score] = weakest;
    const outranked = slot.signedIn ? use.signedIn && score < 1 : use.signedIn || score < 1;
    if (!outranked) return false;
    this.slots.delete(name);
    this.evicted(name);
    return true;
  }

  private decayed(slot: Slot, now: number): number {
    return slot.score * 2 ** (-(now - slot.at) / this.halfLifeMs);
  }
}

/** Anonymous-only names rank below signed-in ones, then by score. */
function rank(slot: Slot, score: number): number {
  return (slot.signedIn ? Number.MAX_SAFE_INTEGER / 2 : 0) + score;
}
