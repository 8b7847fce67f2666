import DataLoader from 'dataloader';

import { Page, pageKey } from './pagination';

/** Orders `rows` as `keys`, with null where a key has no row: the contract of a DataLoader batch. */
export function byKeys<T>(
  keys: readonly string[],
  rows: T[],
  keyOf: (row: T) => string,
): (T | null)[] {
  const index = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => index.get(key) ?? null);
}

/**
 * The public members of a feature's loaders class, which the composed loaders expose. A feature's
 * loaders are a class rather than an object literal with getters: V8 gives each such literal a
 * hidden class of its own, and until the next full collection that keeps alive everything its
 * getters reach (the request's loaders and rows), through every young-generation collection.
 */
export type LoadersOf<T> = { readonly [K in keyof T]: T[K] };

/** A count per key, zero where the statement found no row. */
export const counts = (load: (keys: readonly string[]) => Promise<Map<string, number>>) =>
  new DataLoader<string, number>(async (keys) => {
    const found = await load(keys);
    return keys.map((key) => found.get(key) ?? 0);
  });

/** A yes/no per key for the viewer; false for everyone when anonymous, without a statement. */
export const viewerFlags = (
  viewerId: string | null,
  load: (viewerId: string, keys: readonly string[]) => Promise<Set<string>>,
) =>
  new DataLoader<string, boolean>(async (keys) => {
    if (viewerId === null) return keys.map(() => false);
    const yes = await load(viewerId, keys);
    return keys.map((key) => yes.has(key));
  });

/** One DataLoader per distinct page argument, shared by every parent that asks for that page. */
export class PagedLoaders<T, P extends Page = Page> {
  private readonly loaders = new Map<string, DataLoader<string, T[]>>();

  /** `keyOf` tells pages apart, when a page carries more than {@link pageKey} reads. */
  constructor(
    private readonly load: (keys: readonly string[], page: P) => Promise<Map<string, T[]>>,
    private readonly keyOf: (page: P) => string = pageKey,
  ) {}

  for(page: P): DataLoader<string, T[]> {
    const key = this.keyOf(page);
    let loader = this.loaders.get(key);
    if (!loader) {
      loader = new DataLoader(async (keys) => {
        const pages = await this.load(keys, page);
        return keys.map((id) => pages.get(id) ?? []);
      });
      this.loaders.set(key, loader);
    }
    return loader;
  }

  /** Remembers `key`'s `page`, read by another statement, so that loading it costs none. */
  prime(page: P, key: string, value: T[]): void {
    this.for(page).prime(key, value);
  }
}

/**
 * The loaders one request has made so far, by name, shared by every feature's loaders. A loader
 * is made the first time a field asks for it (most requests need two or three), and one clear()
 * after a mutation forgets them all.
 */
export class LoaderCache {
  private readonly made = new Map<string, unknown>();
  private clearedOnce = false;
  private primes: (() => void)[] | null = null;

  /** True once a mutation has cleared the loaders: what was known at the start may be stale. */
  get cleared(): boolean {
    return this.clearedOnce;
  }

  once<T>(name: string, make: () => T): T {
    let loader = this.made.get(name) as T | undefined;
    if (loader === undefined) {
      loader = make();
      this.made.set(name, loader);
    }
    return loader;
  }

  /**
   * Runs `prime` right after the next clear(), once: what a mutation knows of its own write
   * (the viewer now likes the post), primed into the fresh loaders that its selection reads.
   */
  primeAfterClear(prime: () => void): void {
    (this.primes ??= []).push(prime);
  }

  clear(): void {
    this.made.clear();
    this.clearedOnce = true;
    const primes = this.primes;
    this.primes = null;
    primes?.forEach((prime) => prime());
  }
}
