import { MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import {
  getNamedType,
  GraphQLFieldConfig,
  GraphQLSchema,
  GraphQLType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';

import { resolveBlogFeatures } from './feature-switches';
import { coordinatesOf, parseCoordinate } from './schema-coordinates';
import { BlogFeatureSwitches } from '../blog-feature';
import { blogFeatures } from '../blog-features';

/**
 * The GraphQL root's `transformSchema` for a BlogModule with some features left out: it removes
 * every type, field, input field and argument that exists only with those features, and the types
 * nothing uses any more. Nest builds the schema from every decorated class it has loaded, so an
 * input field such as `CreatePostInput.tags` or an argument such as `Query.posts(tags:)` would
 * otherwise stay. Pass the same `features` as to `BlogModule.forRoot`; BlogModule refuses to
 * start when the served schema still has a left-out feature's coordinates.
 *
 * @example
 * GraphQLModule.forRoot({ ..., transformSchema: blogSchemaTransform({ notifications: false }),
 *   transformAutoSchemaFile: true })
 */
export function blogSchemaTransform(
  features?: BlogFeatureSwitches,
): (schema: GraphQLSchema) => GraphQLSchema {
  const switches = resolveBlogFeatures(features);
  const left = coordinatesOf(blogFeatures.filter((feature) => !switches[feature.name]));
  return (schema) => (left.length === 0 ? schema : withoutCoordinates(schema, left));
}

/** `schema` without the named types, fields and arguments, and without the types left unused. */
export function withoutCoordinates(schema: GraphQLSchema, coordinates: string[]): GraphQLSchema {
  const types = new Set<string>();
  const fields = new Set<string>();
  const argumentsOf = new Map<string, Set<string>>();
  for (const { type, field, argument } of coordinates.map(parseCoordinate)) {
    if (field === undefined) types.add(type);
    else if (argument === undefined) fields.add(`${type}.${field}`);
    else
      argumentsOf.set(
        `${type}.${field}`,
        (argumentsOf.get(`${type}.${field}`) ?? new Set()).add(argument),
      );
  }
  const mapped = mapSchema(schema, {
    [MapperKind.TYPE]: (type) => (types.has(type.name) ? null : type),
    [MapperKind.COMPOSITE_FIELD]: (config, fieldName, typeName) => {
      const coordinate = `${typeName}.${fieldName}`;
      if (fields.has(coordinate)) return null;
      const removed = argumentsOf.get(coordinate);
      return removed ? withoutArguments(config, removed) : config;
    },
    [MapperKind.INPUT_OBJECT_FIELD]: (config, fieldName, typeName) =>
      fields.has(`${typeName}.${fieldName}`) ? null : config,
  });
  return withoutUnusedEnums(pruneSchema(mapped));
}

function withoutArguments(
  config: GraphQLFieldConfig<unknown, unknown>,
  removed: Set<string>,
): GraphQLFieldConfig<unknown, unknown> {
  const args = Object.fromEntries(
    Object.entries(config.args ?? {}).filter(([name]) => !removed.has(name)),
  );
  const astNode = config.astNode && {
    ...config.astNode,
    arguments: config.astNode.arguments?.filter((arg) => !removed.has(arg.name.value)),
  };
  return { ...config, args, astNode };
}

/** pruneSchema keeps enums nobody uses; a left-out feature's enum must go too. */
function withoutUnusedEnums(schema: GraphQLSchema): GraphQLSchema {
  const used = new Set<string>();
  const use = (type: GraphQLType) => used.add(getNamedType(type).name);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      use(field.type);
      if (!('args' in field)) continue;
      for (const arg of field.args) use(arg.type);
    }
  }
  for (const directive of schema.getDirectives()) {
    for (const arg of directive.args) use(arg.type);
  }
  return mapSchema(schema, {
    [MapperKind.ENUM_TYPE]: (type) =>
      type.name.startsWith('__') || used.has(type.name) ? type : null,
  });
}
