import { applyDecorators, ArgumentsHost, Catch, UseFilters, UseGuards } from '@nestjs/common';
import { GqlExceptionFilter } from '@nestjs/graphql';
import { ViewerGuard } from '../auth/viewer.guard';

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

/** The enhancers of every blog resolver class: the viewer and loaders, and error hand-off. */
export const BlogResolverEnhancers = () =>
  applyDecorators(UseGuards(ViewerGuard), UseFilters(PassErrorsToFormatter));
