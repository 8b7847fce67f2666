import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { Viewer as ViewerType } from '../users/viewer';

function blogContext(context: ExecutionContext): BlogContext {
  return GqlExecutionContext.create(context).getContext<BlogContext>();
}

/** The signed-in user of the request, or null when anonymous. */
export const CurrentViewer = createParamDecorator(
  (_: unknown, context: ExecutionContext): ViewerType => blogContext(context).viewer ?? null,
);

/**
 * The request's loaders, set up by ViewerGuard on its root field. For field resolvers written
 * without parameter decorators, which Nest binds as plain GraphQL resolvers, without the
 * per-call context it builds for decorated ones: the hot nested fields.
 */
export function loadersOf(context: BlogContext): BlogLoaders {
  const loaders = context.loaders;
  if (!loaders)
    throw new Error('Blog loaders are missing: is ViewerGuard applied to the root resolver?');
  return loaders;
}

/** The per-request loaders, set up by ViewerGuard. */
export const Loaders = createParamDecorator((_: unknown, context: ExecutionContext): BlogLoaders =>
  loadersOf(blogContext(context)),
);
