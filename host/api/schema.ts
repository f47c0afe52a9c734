// The management API's GraphQL schema: Vector 0.54's own (vector-schema.json, its introspection result,
// under the MPL 2.0 in vector-schema.LICENSE), so Vector's clients and dashboards run unchanged. The schema
// is rebuilt from that file and each resolver module fills in the fields it serves.

import {
  buildClientSchema,
  GraphQLObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import introspection from './vector-schema.json' with { type: 'json' };
import type { ApiContext } from './context.js';

// biome-ignore lint/suspicious/noExplicitAny: graphql-js types a resolver's parent and arguments as any
export type FieldResolver = GraphQLFieldResolver<any, ApiContext, any>;

/** A subscription field: `subscribe` yields the values the field resolves to (each one sent as is). */
interface SubscriptionField {
  // biome-ignore lint/suspicious/noExplicitAny: graphql-js types a resolver's arguments as any
  subscribe(parent: unknown, args: any, context: ApiContext): AsyncIterable<unknown>;
}

/** Fields of object types by type name; `Subscription`'s are SubscriptionFields. */
export interface Resolvers {
  [typeName: string]: { [field: string]: FieldResolver | SubscriptionField };
}

/** The schema with every resolver of `modules` attached; a resolver for a type or field the schema lacks
 * is a programming error, caught at start-up. Abstract types resolve by the `__typename` of each value. */
export function buildApiSchema(modules: readonly Resolvers[]): GraphQLSchema {
  const schema = buildClientSchema((introspection as unknown as { data: IntrospectionQuery }).data);
  for (const resolvers of modules) {
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const type = schema.getType(typeName);
      if (!(type instanceof GraphQLObjectType))
        throw new Error(`API resolvers: no object type ${typeName} in the schema`);
      const schemaFields = type.getFields();
      for (const [name, resolver] of Object.entries(fields)) {
        const field = schemaFields[name];
        if (field === undefined) throw new Error(`API resolvers: no field ${typeName}.${name} in the schema`);
        if (typeof resolver === 'function') field.resolve = resolver;
        else {
          field.subscribe = (parent, args, context) => resolver.subscribe(parent, args, context);
          field.resolve = (payload) => payload;
        }
      }
    }
  }
  return schema;
}
