// Validation of GraphQL documents as Vector's server (async-graphql) validates them. graphql-js also
// requires fields of one response name to have the same type across mutually exclusive object types
// (the spec's SameResponseShape); async-graphql does not, and Vector's own tap document relies on it:
// `message` is `String` on Log and `String!` on EventNotification.

import {
  OverlappingFieldsCanBeMergedRule,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';

/** OverlappingFieldsCanBeMerged without its type check: a conflict of types is reported only between
 * mutually exclusive parents (on one parent, a conflict is of fields or arguments, reported as such). */
const overlappingFieldsAsVector: ValidationRule = (context) =>
  OverlappingFieldsCanBeMergedRule(
    Object.create(context, {
      reportError: {
        value: (error: GraphQLError) => {
          if (!error.message.includes('they return conflicting types')) context.reportError(error);
        },
      },
    }),
  );

const RULES = specifiedRules.map((rule) =>
  rule === OverlappingFieldsCanBeMergedRule ? overlappingFieldsAsVector : rule,
);

/** graphql-js's `validate` with the rules Vector's server applies. */
export function validateAsVector(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  return validate(schema, document, RULES);
}
