import DataLoader from 'dataloader';
import { byKeys, LoaderCache } from '../common/loaders';
import { User } from './user.entity';
import { UsersService } from './users.service';
import { Viewer } from './viewer';

/**
 * The user loaders of one request. The viewer's row is known when the request starts, so it is
 * primed, until a mutation clears the loaders and may have changed it.
 */
export function usersLoaders(users: UsersService, cache: LoaderCache, viewer: Viewer) {
  return {
    get userById(): DataLoader<string, User | null> {
      return cache.once('userById', () => {
        const loader = new DataLoader<string, User | null>(async (ids) =>
          byKeys(ids, await users.findByIds(ids), (u) => u.id),
        );
        if (viewer && !cache.cleared) loader.prime(viewer.id, viewer);
        return loader;
      });
    },
  };
}

export type UsersLoaders = ReturnType<typeof usersLoaders>;
