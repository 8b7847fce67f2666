import 'reflect-metadata';

import { Provider, Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, MODULE_METADATA } from '@nestjs/common/constants';

import { blogFeatures } from './blog-features';
import { FRESH_LOADERS_AFTER } from './blog-resolver.decorator';
import { BlogModule } from './blog.module';

/** `@nestjs/graphql`'s key for a handler's root type (Query, Mutation, Subscription). */
const RESOLVER_TYPE_METADATA = 'graphql:resolver_type';

/** Every class the blog registers, features included. */
function blogClasses(): Type[] {
  const providers: Provider[] = [
    ...(Reflect.getMetadata(MODULE_METADATA.PROVIDERS, BlogModule) as Provider[]),
    ...blogFeatures.flatMap((feature) => feature.providers),
  ];
  return providers.filter((provider): provider is Type => typeof provider === 'function');
}

/** The handlers of a class's root fields: [name, root type, interceptors, fresh loaders after]. */
function rootHandlers(type: Type): [string, string, unknown[], boolean][] {
  return Object.getOwnPropertyNames(type.prototype).flatMap((name) => {
    // The descriptor's value: reading a getter of the prototype would run it.
    const handler: unknown = Object.getOwnPropertyDescriptor(type.prototype, name)?.value;
    if (typeof handler !== 'function') return [];
    const root = Reflect.getMetadata(RESOLVER_TYPE_METADATA, handler) as string | undefined;
    if (!root) return [];
    const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
    const fresh = Reflect.getMetadata(FRESH_LOADERS_AFTER, handler) === true;
    return [[`${type.name}.${name}`, root, interceptors, fresh]];
  });
}

describe('BlogMutation', () => {
  const handlers = blogClasses().flatMap(rootHandlers);

  it('should give every root Mutation field of the blog fresh loaders after it', () => {
    const mutations = handlers.filter(([, root]) => root === 'Mutation');
    expect(mutations.length).toBeGreaterThanOrEqual(19);
    const without = mutations.filter(([, , , fresh]) => !fresh).map(([name]) => name);
    expect(without).toEqual([]);
  });

  it('should run no mutation through an interceptor, so Nest calls them directly too', () => {
    const mutations = handlers.filter(([, root]) => root === 'Mutation');
    const intercepted = mutations
      .filter(([, , interceptors]) => interceptors.length > 0)
      .map(([name]) => name);
    expect(intercepted).toEqual([]);
  });

  it('should leave queries and subscriptions without interceptors, so Nest calls them directly', () => {
    const others = handlers.filter(([, root]) => root !== 'Mutation');
    expect(others.some(([, root]) => root === 'Query')).toBe(true);
    expect(others.some(([, root]) => root === 'Subscription')).toBe(true);
    const intercepted = others
      .filter(([, , interceptors, fresh]) => interceptors.length > 0 || fresh)
      .map(([name]) => name);
    expect(intercepted).toEqual([]);
    const classLevel = blogClasses()
      .filter((type) => (Reflect.getMetadata(INTERCEPTORS_METADATA, type) ?? []).length > 0)
      .map((type) => type.name);
    expect(classLevel).toEqual([]);
  });
});
