import { applyDecorators, ArgumentsHost, Catch, UseFilters, UseGuards } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import {
  Context,
  GqlExceptionFilter,
  Mutation,
  MutationOptions,
  ReturnTypeFunc,
} from '@nestjs/graphql';

import { ViewerGuard } from './auth/viewer.guard';
import { BlogContext } from './blog-context';
import { activeBan, bannedError, OPEN_TO_BANNED } from './users/bans';
import { OPEN_TO_UNVERIFIED, unverifiedEmailRefusal } from './users/email-verification';

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
 * Marks a handler that {@link BlogMutation} runs with fresh loaders after it (for the tests that
 * check every root Mutation field of the blog has them).
 */
export const FRESH_LOADERS_AFTER = 'blog:fresh_loaders_after';

/**
 * Empties the request's loader caches once a root Mutation field's resolver has returned (or
 * failed), before its sub-selection resolves: that selection, and every later field of the
 * operation, then reads what the mutation left. GraphQL runs root mutation fields one after
 * the other, each with its selection, so no field reads a cache across a write. Queries keep
 * their caches for the whole request.
 *
 * A root mutation field of an operation that has stopped (its client has gone, see
 * RequestScope) does not start: the fields already run stay written, the rest write nothing.
 * Nor does one of a banned viewer, but those of OPEN_TO_BANNED (signing out, say), nor, when
 * verified addresses are required, one of a viewer whose address is not, but those of
 * OPEN_TO_UNVERIFIED.
 *
 * It wraps the handler itself, with the GraphQL context handed to it as one more parameter
 * (`@Context()` after its own), rather than as a Nest interceptor: Nest runs a handler with an
 * interceptor through RxJS observables that it makes for every call, 8 % of a like's CPU.
 */
function freshLoadersAfter(target: object, key: string | symbol, descriptor: PropertyDescriptor) {
  const handler = descriptor.value as (...args: unknown[]) => unknown;
  const declared = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ??
    {}) as Record<string, { index: number }>;
  const contextIndex = Math.max(
    handler.length,
    ...Object.values(declared).map(({ index }) => index + 1),
  );
  Context()(target, key, contextIndex);
  const openToBanned = OPEN_TO_BANNED.has(String(key));
  const openToUnverified = OPEN_TO_UNVERIFIED.has(String(key));
  const fresh = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    // Nest always hands the context; code that calls the handler itself may not.
    const blog = args[contextIndex] as BlogContext | undefined;
    blog?.scope?.throwIfStopped();
    const ban = openToBanned ? null : activeBan(blog?.viewer);
    if (ban) throw bannedError(ban);
    const unverified = openToUnverified
      ? null
      : unverifiedEmailRefusal(blog?.viewer, blog?.requireVerifiedEmail ?? false);
    if (unverified) throw unverified;
    try {
      return await handler.apply(this, args);
    } finally {
      blog?.loaders?.clear();
    }
  };
  // What decorators applied before this one set on the handler stays on it.
  for (const metadataKey of Reflect.getOwnMetadataKeys(handler)) {
    Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, handler), fresh);
  }
  Object.defineProperty(fresh, 'name', { value: handler.name });
  Reflect.defineMetadata(FRESH_LOADERS_AFTER, true, fresh);
  descriptor.value = fresh;
}

/**
 * The enhancers of every blog resolver class: the viewer and loaders, and error hand-off. Fresh
 * loaders after a mutation come with {@link BlogMutation}, on the mutation alone. No blog
 * handler has an interceptor: Nest would run it through RxJS observables made for every call.
 */
export const BlogResolverEnhancers = () =>
  applyDecorators(UseGuards(ViewerGuard), UseFilters(PassErrorsToFormatter));

/**
 * A root Mutation field of the blog: Nest's `@Mutation`, run with fresh loaders after it (see
 * freshLoadersAfter). Every mutation of a blog resolver is declared with it.
 */
export const BlogMutation = (typeFunc: ReturnTypeFunc, options?: MutationOptions) =>
  applyDecorators(freshLoadersAfter, Mutation(typeFunc, options));
