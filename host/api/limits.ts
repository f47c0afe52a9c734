// Bounds on what a GraphQL document may ask of the service, checked before graphql-js validates it (some of
// its rules cost more than linear time in the fields a query selects) or runs it. A small document can
// select an exponential number of fields through fragments that each spread the one below twice, and a
// deeply nested one exhausts the stack of a recursive parser or validator: both are refused here with an
// error that says which bound was passed.
//
// - MAX_TOKENS: the parser stops past it (graphql-js's `maxTokens`), so nothing after parsing sees more.
// - MAX_DEPTH: 32, async-graphql's default recursion limit, which Vector's server runs with.
// - MAX_FIELDS: fields an operation selects once its fragments are expanded (each alias counts), counted
//   with one measure per fragment, so counting is linear in the document however often fragments repeat.
//
// Vector's own documents (cli/vector-documents) stay far below each: at most 6 deep, 36 fields, 112 tokens.

import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export const MAX_TOKENS = 5_000;
export const MAX_DEPTH = 32;
export const MAX_FIELDS = 10_000;

interface Measure {
  /** The most fields nested in one another. */
  depth: number;
  /** Fields selected, fragments expanded. */
  fields: number;
}

const NOTHING: Measure = { depth: 0, fields: 0 };

/** The first bound `document` passes, as the error the client gets; undefined within every bound. */
export function checkLimits(document: DocumentNode): GraphQLError | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // A fragment in a cycle (or unknown) measures nothing here: validation reports it.
  const measured = new Map<string, Measure>();

  function fragment(name: string): Measure {
    const known = measured.get(name);
    if (known !== undefined) return known;
    const definition = fragments.get(name);
    if (definition === undefined) return NOTHING;
    measured.set(name, NOTHING);
    const measure = selections(definition.selectionSet);
    measured.set(name, measure);
    return measure;
  }

  function selections(set: SelectionSetNode): Measure {
    let depth = 0;
    let fields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const inner = selection.selectionSet ? selections(selection.selectionSet) : NOTHING;
        depth = Math.max(depth, 1 + inner.depth);
        fields += 1 + inner.fields;
      } else {
        const inner =
          selection.kind === Kind.INLINE_FRAGMENT ? selections(selection.selectionSet) : fragment(selection.name.value);
        depth = Math.max(depth, inner.depth);
        fields += inner.fields;
      }
    }
    return { depth, fields };
  }

  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const { depth, fields } = selections(definition.selectionSet);
    if (depth > MAX_DEPTH)
      return new GraphQLError(`query is nested too deeply: depth ${depth}, the limit is ${MAX_DEPTH}`, {
        nodes: definition,
      });
    if (fields > MAX_FIELDS)
      return new GraphQLError(
        `query selects too many fields: ${fields} once its fragments are expanded, the limit is ${MAX_FIELDS}`,
        { nodes: definition },
      );
  }
  return undefined;
}
