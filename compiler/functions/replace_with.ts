import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';
import { REPLACE_MATCH } from './support/regex-groups.js';

export default defineFunction({
  name: 'replace_with',
  category: 'String',
  description:
    'Replaces matches of a regular expression with what a closure returns for each; the closure receives the matched text, its numbered captures and its named groups.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Regex, required: true },
    { name: 'count', kinds: K.Integer, required: false, default: '-1' },
  ],
  returns: BYTES,
  closure: {
    variables: () => [REPLACE_MATCH],
    returns: BYTES,
    example: String.raw`replace_with("received email from a@example.com", pattern: r'\w+@\w+\.\w+') -> |match| { sha2(match.string) }`,
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Capitalize words',
      source: `replace_with("apples and bananas", r'\\b(\\w)(\\w*)') -> |match| {
    upcase!(match.captures[0]) + string!(match.captures[1])
}
`,
      returns: '"Apples And Bananas"',
    },
    {
      title: 'Replace with hash',
      source: `replace_with("email from test@example.com", r'\\w+@example.com') -> |match| {
    sha2(match.string, variant: "SHA-512/224")
}
`,
      returns: '"email from adf6e1bc4415d24912bd93072ad34ef825a7b6eb3bf53f68def1fc17"',
    },
    {
      title: 'Replace first instance',
      source: `replace_with("Apples and Apples", r'(?i)apples|cones', count: 1) -> |match| {
    "Pine" + downcase(match.string)
}
`,
      returns: '"Pineapples and Apples"',
    },
    {
      title: 'Named capture group',
      source: `replace_with("level=error A message", r'level=(?P<level>\\w+)') -> |match| {
    lvl = upcase!(match.level)
    "[{{lvl}}]"
}
`,
      returns: '"[ERROR] A message"',
    },
    {
      title: 'Replace with processed capture group',
      source: `replace_with(s'Got message: {"msg": "b"}', r'message: (\\{.*\\})') -> |m| {
    to_string!(parse_json!(m.captures[0]).msg)
}
`,
      returns: '"Got b"',
    },
    {
      title: 'Replace with optional capture group',
      source: `replace_with("bar of chocolate and bar of gold", r'bar( of gold)?') -> |m| {
    if m.captures[0] == null { "pile" } else { "money" }
}
`,
      returns: '"pile of chocolate and money"',
    },
  ],
});
