import DataLoader from 'dataloader';

import { User } from './user.entity';
import { UsersService } from './users.service';
import { Viewer } from './viewer';
import { byKeys, LoaderCache, LoadersOf } from '../common/loaders';

/**
 * DataLoader's cache of a {@link UserRows}: a promise per id asked for or primed. It holds the
 * row each promise settles on for as long as that promise is the id's, so that the rows held are
 * always what the loader answers, whatever clears, primes or reads it.
 */
class UserPromises extends Map<string, Promise<User | null>> {
  readonly rows = new Map<string, User>();

  override set(id: string, promise: Promise<User | null>): this {
    this.rows.delete(id);
    super.set(id, promise);
    promise.then(
      (user) => {
        if (user && super.get(id) === promise) this.rows.set(id, user);
      },
      () => undefined, // the caller of load() gets the error
    );
    return this;
  }

  override delete(id: string): boolean {
    this.rows.delete(id);
    return super.delete(id);
  }

  override clear(): void {
    this.rows.clear();
    super.clear();
  }
}

/**
 * One request's loader of users by id, with the rows it holds already: those primed and those
 * its batches have read, each exactly as the loader answers it, so that reading it here instead
 * of through the loader changes no answer.
 */
class UserRows {
  readonly loader: DataLoader<string, User | null>;
  private readonly promises = new UserPromises();

  constructor(users: UsersService, viewer: Viewer) {
    this.loader = new DataLoader(
      async (ids) => byKeys(ids, await users.findByIds(ids), (user) => user.id),
      { cacheMap: this.promises },
    );
    if (viewer) this.prime(viewer);
  }

  /** As DataLoader's prime: an id the loader has already, or is reading, keeps that row. */
  prime(user: User): void {
    if (this.promises.has(user.id)) return;
    this.loader.prime(user.id, user);
    // Held at once, not when the primed promise settles: the row is known now.
    this.promises.rows.set(user.id, user);
  }

  held(id: string): User | undefined {
    return this.promises.rows.get(id);
  }
}

/**
 * The user loaders of one request. The viewer's row is known when the request starts, so it is
 * primed, until a mutation clears the loaders and may have changed it; so are the rows of every
 * list of users the request reads.
 */
class RequestUsersLoaders {
  constructor(
    private readonly users: UsersService,
    private readonly cache: LoaderCache,
    private readonly viewer: Viewer,
  ) {}

  /** A private method (`#`), so that the composed loaders do not expose it as a loader. */
  #rows(): UserRows {
    return this.cache.once(
      'userById',
      () => new UserRows(this.users, this.cache.cleared ? null : this.viewer),
    );
  }

  get userById(): DataLoader<string, User | null> {
    return this.#rows().loader;
  }

  /**
   * Hands back `list` after remembering its rows by id, so that fields asking for these users
   * (a post's author, say) cost no further statement.
   */
  knownUsers(list: User[]): User[] {
    const rows = this.#rows();
    for (const user of list) rows.prime(user);
    return list;
  }

  /**
   * The user `id` as `userById` answers it, when the request holds that row already (primed, or
   * read by a batch that has finished); undefined otherwise. A field that resolves a user for
   * each of many parents (the authors of a page of posts) answers the known ones with it at
   * once, without a promise for each.
   */
  knownUser(id: string): User | undefined {
    return this.#rows().held(id);
  }

  /**
   * The author `id` of the `kind` (`Post`, `Comment`) `ownerId`: at once when the request holds
   * the row (see knownUser), through `userById` otherwise. A missing row is a broken reference:
   * the field fails.
   */
  authorOf(id: string, kind: string, ownerId: string): User | Promise<User> {
    return this.knownUser(id) ?? this.#loadAuthor(id, kind, ownerId);
  }

  async #loadAuthor(id: string, kind: string, ownerId: string): Promise<User> {
    const author = await this.userById.load(id);
    if (!author) throw new Error(`${kind} ${ownerId} has no author ${id}`);
    return author;
  }
}

export function usersLoaders(users: UsersService, cache: LoaderCache, viewer: Viewer) {
  return new RequestUsersLoaders(users, cache, viewer);
}

export type UsersLoaders = LoadersOf<RequestUsersLoaders>;
