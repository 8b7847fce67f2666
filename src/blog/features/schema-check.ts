import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { GraphQLSchema } from 'graphql';

import { resolveBlogFeatures } from './feature-switches';
import { coordinatesOf, hasCoordinate } from './schema-coordinates';
import { BlogFeature } from '../blog-feature';
import { blogFeatures } from '../blog-features';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';

/**
 * Refuses to start when the served schema still has a coordinate of a feature the module leaves
 * out: its fields would be there for clients to call, with nothing behind them.
 */
@Injectable()
export class FeatureSchemaCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(BLOG_MODULE_OPTIONS) private readonly options: BlogModuleOptions,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    const schema = this.servedSchema();
    if (!schema) return;
    const switches = resolveBlogFeatures(this.options.features);
    const leftOut = blogFeatures.filter((feature) => !switches[feature.name]);
    const problem = leftOverCoordinates(schema, leftOut);
    if (problem) throw new Error(problem);
  }

  /** None where the host has no GraphQL root, or no schema: then nothing is served. */
  private servedSchema(): GraphQLSchema | undefined {
    try {
      return this.moduleRef.get(GraphQLSchemaHost, { strict: false }).schema;
    } catch {
      return undefined;
    }
  }
}

/** The one-line refusal when `schema` has coordinates of the `leftOut` features, or undefined. */
export function leftOverCoordinates(
  schema: GraphQLSchema,
  leftOut: BlogFeature[],
): string | undefined {
  const found = coordinatesOf(leftOut).filter((coordinate) => hasCoordinate(schema, coordinate));
  if (found.length === 0) return undefined;
  const off = Object.fromEntries(leftOut.map((feature) => [feature.name, false]));
  return (
    `BlogModule leaves out ${leftOut.map((feature) => feature.name).join(', ')}, but the GraphQL ` +
    `schema still has ${found.join(', ')}: add transformSchema: blogSchemaTransform(` +
    `${JSON.stringify(off).replace(/"/g, '')}) and transformAutoSchemaFile: true to GraphQLModule.forRoot`
  );
}
