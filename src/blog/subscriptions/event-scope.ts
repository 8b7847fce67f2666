import DataLoader from 'dataloader';
import { ExecutionResult } from 'graphql';

import { BlogContext } from '../blog-context';
import { BlogLoaders, BlogLoadersFactory } from '../blog-loaders';
import { byKeys } from '../common/loaders';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

const STILL_CONNECTED = Promise.resolve(true);

/**
 * What one event costs, paid once and shared by all its subscribers: the rows no viewer changes
 * (the post, its author, its counts) through one set of loaders, the signed-in subscribers'
 * users re-read in one statement, and one execution per distinct subscription and viewer.
 */
export class EventScope {
  readonly startedAt = Date.now();
  private shared?: BlogLoaders;
  private readonly byViewer = new Map<string, BlogLoaders>();
  private users?: DataLoader<string, User | null>;
  private readonly refreshed = new WeakMap<BlogContext, Promise<boolean>>();
  private readonly results = new Map<string, Promise<ExecutionResult>>();

  constructor(
    private readonly factory: BlogLoadersFactory,
    private readonly usersService: UsersService,
  ) {}

  /** Loaders for what every viewer sees alike: one set for the event. */
  get loaders(): BlogLoaders {
    return (this.shared ??= this.factory.create(null));
  }

  /** `viewer`'s loaders for this event: their own flags, every other row shared. */
  loadersFor(viewer: Viewer): BlogLoaders {
    if (!viewer) return this.loaders;
    let loaders = this.byViewer.get(viewer.id);
    if (!loaders) {
      loaders = this.factory.create(viewer, this.loaders);
      this.byViewer.set(viewer.id, loaders);
    }
    return loaders;
  }

  /**
   * Re-reads the viewer of a subscription's context for this event, once (false: the connection
   * has ended). The users asked for before the event loop's next turn come from one statement.
   */
  refresh(context: BlogContext): Promise<boolean> {
    // An anonymous connection stays anonymous: there is no one to re-read.
    if (!context.viewer || !context.refreshViewer) return STILL_CONNECTED;
    let refreshed = this.refreshed.get(context);
    if (!refreshed) {
      refreshed = context.refreshViewer(this.findUser);
      this.refreshed.set(context, refreshed);
    }
    return refreshed;
  }

  private readonly findUser = (id: string): Promise<User | null> => {
    this.users ??= new DataLoader(
      async (ids: readonly string[]) =>
        byKeys(ids, await this.usersService.findByIds(ids), (user) => user.id),
      { batchScheduleFn: (run) => setImmediate(run) },
    );
    return this.users.load(id);
  };

  /** The result of `key` for this event, computed by the first subscriber that asks. */
  result(key: string, compute: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    let result = this.results.get(key);
    if (!result) {
      result = compute();
      this.results.set(key, result);
    }
    return result;
  }
}
