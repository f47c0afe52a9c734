// A GraphQL request as clients send it (the body of POST /graphql, the payload of a WebSocket operation)
// and its preparation for graphql-js: parsed, held to the limits (limits.ts) and validated against the
// schema. HTTP and both WebSocket protocols prepare operations here, so they accept and reject the same
// documents with the same errors.

import {
  GraphQLError,
  getOperationAST,
  parse,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import type { Logger } from '../log.js';
import type { ApiContext } from './context.js';
import { checkLimits, MAX_TOKENS } from './limits.js';
import { validateAsVector } from './validation.js';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** The request in `body`, or what is wrong with it. */
export function graphQLRequest(body: unknown): GraphQLRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'the body must be a JSON object with a "query"';
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') return '"query" must be a string';
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables)))
    return '"variables" must be an object';
  if (operationName != null && typeof operationName !== 'string') return '"operationName" must be a string';
  return {
    query,
    variables: variables as GraphQLRequest['variables'],
    operationName: operationName as GraphQLRequest['operationName'],
  };
}

export interface PreparedOperation {
  args: ExecutionArgs;
  /** Undefined when the document does not name one operation; graphql-js then says why when it runs. */
  kind: OperationTypeNode | undefined;
}

/** Parses, bounds and validates `request`; what is wrong with it comes back as the client will see it. */
export function prepareOperation(
  schema: GraphQLSchema,
  request: GraphQLRequest,
  context: ApiContext,
): PreparedOperation | { errors: readonly GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS });
    const beyond = checkLimits(document);
    if (beyond) return { errors: [beyond] };
    const errors = validateAsVector(schema, document);
    if (errors.length > 0) return { errors };
  } catch (error) {
    return { errors: [asGraphQLError(error)] };
  }
  return {
    args: {
      schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: context,
    },
    kind: getOperationAST(document, request.operationName)?.operation,
  };
}

/** What parsing or validation threw, as the client sees it: a GraphQLError as it is; anything else (a
 * RangeError when a document nests deeper than the stack allows) by its message, which JSON alone loses. */
function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const cause = error instanceof Error ? error : new Error(String(error));
  const message = cause instanceof RangeError ? `the query cannot be processed: ${cause.message}` : cause.message;
  return new GraphQLError(message, { originalError: cause });
}

/** Logs the errors of a result that are failures of the service rather than of the request: what a
 * resolver or a subscription's stream threw other than a GraphQLError (which resolvers throw for bad
 * arguments, and which graphql-js reports for bad documents). The client gets every error in any case. */
export function logFailures(log: Logger, errors: readonly GraphQLError[] | undefined): void {
  for (const error of errors ?? []) {
    if (error.originalError === undefined || error.originalError instanceof GraphQLError) continue;
    log.error(
      'A GraphQL operation failed.',
      { error: error.message, ...(error.path ? { path: error.path.join('.') } : {}) },
      error.originalError,
    );
  }
}
