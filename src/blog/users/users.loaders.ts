import DataLoader from 'dataloader';

import { User } from './user.entity';
import { UsersService } from './users.service';
import { Viewer } from './viewer';
import { byKeys, LoaderCache } from '../common/loaders';

/**
 * The user loaders of one request. The viewer's row is known when the request starts, so it is
 * primed, until a mutation clears the loaders and may have changed it; so are the rows of every
 * list of users the request reads.
 */
export function usersLoaders(users: UsersService, cache: LoaderCache, viewer: Viewer) {
  const userById = () =>
    cache.once('userById', () => {
      const loader = new DataLoader<string, User | null>(async (ids) =>
        byKeys(ids, await users.findByIds(ids), (u) => u.id),
      );
      if (viewer && !cache.cleared) loader.prime(viewer.id, viewer);
      return loader;
    });

  return {
    get userById(): DataLoader<string, User | null> {
      return userById();
    },

    /**
     * Hands back `list` after remembering its rows by id, so that fields asking for these users
     * (a post's author, say) cost no further statement.
     */
    knownUsers(list: User[]): User[] {
      const loader = userById();
      for (const user of list) loader.prime(user.id, user);
      return list;
    },
  };
}

export type UsersLoaders = ReturnType<typeof usersLoaders>;
