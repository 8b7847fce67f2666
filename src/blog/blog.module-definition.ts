import { ConfigurableModuleBuilder, DynamicModule, Provider } from '@nestjs/common';

import { BlogFeatureSwitches } from './blog-feature';
import { BlogModuleOptions } from './blog-options.interface';
import { resolveBlogFeatures, ResolvedFeatureSwitches } from './features/feature-switches';

const OPTIONS_TOKEN = Symbol('BLOG_MODULE_OPTIONS');

/**
 * `features` sits beside the other options of `forRoot`, and beside `useFactory` in
 * `forRootAsync`: the schema is built from the registered resolvers before any factory runs.
 */
interface BlogModuleExtras {
  features?: BlogFeatureSwitches;
}

/**
 * `BLOG_MODULE_OPTIONS` is the injection token of the resolved {@link BlogModuleOptions}, for a
 * host that reads them (the standalone app closes the Redis clients they hold at shutdown).
 * Their `features` has every feature's switch, so code can ask whether one is on.
 */
export const {
  ConfigurableModuleClass: ConfigurableBlogModule,
  MODULE_OPTIONS_TOKEN: BLOG_MODULE_OPTIONS,
  OPTIONS_TYPE: BLOG_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: BLOG_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<BlogModuleOptions>({ optionsInjectionToken: OPTIONS_TOKEN })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createBlogOptions')
  .setExtras<BlogModuleExtras>({ features: undefined }, (definition, { features }) =>
    withResolvedFeatures(definition, resolveBlogFeatures(features)),
  )
  .build();

/** The module's options provider, with the resolved switches in place of the host's. */
function withResolvedFeatures(
  definition: DynamicModule,
  features: ResolvedFeatureSwitches,
): DynamicModule {
  const providers = (definition.providers ?? []).map((provider): Provider => {
    if (typeof provider !== 'object' || provider.provide !== OPTIONS_TOKEN) return provider;
    if ('useValue' in provider) {
      return { provide: OPTIONS_TOKEN, useValue: { ...provider.useValue, features } };
    }
    if ('useFactory' in provider) {
      const { useFactory, inject } = provider;
      return {
        provide: OPTIONS_TOKEN,
        inject,
        useFactory: async (...args: unknown[]) =>
          withFeatures((await useFactory(...args)) as BlogModuleOptions, features),
      };
    }
    return provider;
  });
  return { ...definition, providers };
}

function withFeatures(
  options: BlogModuleOptions,
  features: ResolvedFeatureSwitches,
): BlogModuleOptions {
  if (options.features !== undefined) {
    throw new Error(
      'BlogModule.forRootAsync: pass features beside useFactory ({ useFactory, features }), ' +
        'not in the options it returns: the schema is built before the factory runs',
    );
  }
  return { ...options, features };
}
