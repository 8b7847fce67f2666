import {
  applyDecorators,
  ArgumentsHost,
  CallHandler,
  Catch,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  GqlExceptionFilter,
  GqlExecutionContext,
  Mutation,
  MutationOptions,
  ReturnTypeFunc,
} from '@nestjs/graphql';
import { Observable, tap } from 'rxjs';

import { ViewerGuard } from './auth/viewer.guard';
import { BlogContext } from './blog-context';

/**
 * Hands every error of a blog resolver to the GraphQL error formatter untouched, instead of
 * letting Nest log client errors (BAD_USER_INPUT...) as server errors: the formatter decides
 * what is unexpected and logs only that.
 */
@Catch()
export class PassErrorsToFormatter implements GqlExceptionFilter {
  catch(exception: unknown, _host: ArgumentsHost): unknown {
    return exception;
  }
}

/**
 * Empties the request's loader caches once a root Mutation field's resolver has returned (or
 * failed), before its sub-selection resolves: that selection, and every later field of the
 * operation, then reads what the mutation left. GraphQL runs root mutation fields one after
 * the other, each with its selection, so no field reads a cache across a write. Queries keep
 * their caches for the whole request.
 *
 * A root mutation field of an operation that has stopped (its client has gone, see
 * RequestScope) does not start: the fields already run stay written, the rest write nothing.
 * {@link BlogMutation} puts it on each root Mutation field, and on nothing else.
 */
@Injectable()
export class FreshLoadersAfterMutation implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const blog = GqlExecutionContext.create(context).getContext<BlogContext>();
    blog.scope?.throwIfStopped();
    const clear = () => blog.loaders?.clear();
    return next.handle().pipe(tap({ next: clear, error: clear }));
  }
}

/**
 * The enhancers of every blog resolver class: the viewer and loaders, and error hand-off. Fresh
 * loaders after a mutation come with {@link BlogMutation}, on the mutation alone: a handler
 * with an interceptor runs through RxJS observables that Nest makes for every call, which cost
 * every query's root field CPU and garbage for nothing.
 */
export const BlogResolverEnhancers = () =>
  applyDecorators(UseGuards(ViewerGuard), UseFilters(PassErrorsToFormatter));

/**
 * A root Mutation field of the blog: Nest's `@Mutation`, with {@link FreshLoadersAfterMutation}
 * on the handler. Every mutation of a blog resolver is declared with it.
 */
export const BlogMutation = (typeFunc: ReturnTypeFunc, options?: MutationOptions) =>
  applyDecorators(Mutation(typeFunc, options), UseInterceptors(FreshLoadersAfterMutation));
