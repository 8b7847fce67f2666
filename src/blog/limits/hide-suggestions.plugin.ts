import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { Inject } from '@nestjs/common';

import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { withoutSuggestions } from '../common/suggestions';

/**
 * With `hideSchemaDetails`, takes graphql-js's "Did you mean …?" hints out of every error of an
 * HTTP answer: Apollo's `hideSchemaDetailsFromClientErrors` covers validation errors only, and
 * a variable's value that does not fit its type ("Field "titl" is not defined by type
 * "CreatePostInput". Did you mean "title"?") would still name the schema.
 */
@Plugin()
export class HideSuggestionsPlugin implements ApolloServerPlugin {
  constructor(@Inject(BLOG_MODULE_OPTIONS) private readonly options: BlogModuleOptions) {}

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>> | void> {
    return this.options.hideSchemaDetails ? WITHOUT_SUGGESTIONS : undefined;
  }
}

/** The listener of every request: it keeps nothing of its own. */
const WITHOUT_SUGGESTIONS: GraphQLRequestListener<Record<string, unknown>> = {
  willSendResponse: async ({ response }) => {
    const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
    for (const error of result?.errors ?? []) {
      (error as { message: string }).message = withoutSuggestions(error.message);
    }
  },
};
