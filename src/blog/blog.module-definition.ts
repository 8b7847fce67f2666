import { ConfigurableModuleBuilder } from '@nestjs/common';

import { BlogModuleOptions } from './blog-options.interface';

/**
 * `BLOG_MODULE_OPTIONS` is the injection token of the resolved {@link BlogModuleOptions}, for a
 * host that reads them (the standalone app closes the Redis clients they hold at shutdown).
 */
export const {
  ConfigurableModuleClass: ConfigurableBlogModule,
  MODULE_OPTIONS_TOKEN: BLOG_MODULE_OPTIONS,
  OPTIONS_TYPE: BLOG_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: BLOG_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<BlogModuleOptions>()
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createBlogOptions')
  .build();
