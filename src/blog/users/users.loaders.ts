import DataLoader from 'dataloader';

import { User } from './user.entity';
import { UsersService } from './users.service';
import { Viewer } from './viewer';
import { byKeys, LoaderCache, LoadersOf } from '../common/loaders';

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

  get userById(): DataLoader<string, User | null> {
    return this.cache.once('userById', () => {
      const loader = new DataLoader<string, User | null>(async (ids) =>
        byKeys(ids, await this.users.findByIds(ids), (u) => u.id),
      );
      if (this.viewer && !this.cache.cleared) loader.prime(this.viewer.id, this.viewer);
      return loader;
    });
  }

  /**
   * Hands back `list` after remembering its rows by id, so that fields asking for these users
   * (a post's author, say) cost no further statement.
   */
  knownUsers(list: User[]): User[] {
    const loader = this.userById;
    for (const user of list) loader.prime(user.id, user);
    return list;
  }
}

export function usersLoaders(users: UsersService, cache: LoaderCache, viewer: Viewer) {
  return new RequestUsersLoaders(users, cache, viewer);
}

export type UsersLoaders = LoadersOf<RequestUsersLoaders>;
