import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { argKind, mergedObject, mayBeTrue } from './support/rules.js';

export default defineFunction({
  name: 'merge',
  category: 'Object',
  description:
    'Merges the `from` object into the `to` object. Fields of `from` win; with `deep`, fields that are objects on both sides are merged instead of replaced.',
  parameters: [
    { name: 'to', kinds: K.Object, required: true },
    { name: 'from', kinds: K.Object, required: true },
    { name: 'deep', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: (call) => mergedObject(argKind(call, 'to'), argKind(call, 'from'), mayBeTrue(call.args.deep)),
  examples: [
    {
      title: 'Object merge (shallow)',
      source: `merge(
    {
        "parent1": {
            "child1": 1,
            "child2": 2
        },
        "parent2": {
            "child3": 3
        }
    },
    {
        "parent1": {
            "child2": 4,
            "child5": 5
        }
    }
)
`,
      returns: '{ "parent1": { "child2": 4, "child5": 5 }, "parent2": { "child3": 3 } }',
    },
    {
      title: 'Object merge (deep)',
      source: `merge(
    {
        "parent1": {
            "child1": 1,
            "child2": 2
        },
        "parent2": {
            "child3": 3
        }
    },
    {
        "parent1": {
            "child2": 4,
            "child5": 5
        }
    },
    deep: true
)
`,
      returns: '{ "parent1": { "child1": 1, "child2": 4, "child5": 5 }, "parent2": { "child3": 3 } }',
    },
  ],
});
