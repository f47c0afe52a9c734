// One table row per program: the diagnostic code it must produce and the exact text `compile` renders.
// The texts were produced by our checker and renderer and compared with the reference VRL engine's
// structured diagnostics rendered the same way: all rows are identical to it except the two noted
// (`%` is an operator in current VRL; regex errors come from the JS engine we translate to) and those where
// VRL 0.35 differs from that 0.25 engine: lexical errors are E206-E209 at the offending character (0.31),
// a non-string abort message is E113.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkProgram, type CompileOptions } from '../../../compiler/compile.js';
import { CompileError, type Diagnostic } from '../../../compiler/diagnostics/diagnostic.js';
import { renderDiagnostics } from '../../../compiler/diagnostics/render.js';

const TABLE: Array<[code: string, source: string, rendered: string]> = [
  [
    'E100',
    '\nparse_json("true")',
    `error[E100]: unhandled error
  ┌─ :2:1
  │
2 │ parse_json("true")
  │ ^^^^^^^^^^^^^^^^^^
  │ │
  │ expression can result in runtime error
  │ handle the error case to ensure runtime success
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 100 at https://errors.vrl.dev/100
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E100',
    '1 + parse_json("x")',
    `error[E100]: unhandled error
  ┌─ :1:5
  │
1 │ 1 + parse_json("x")
  │     ^^^^^^^^^^^^^^^
  │     │
  │     expression can result in runtime error
  │     handle the error case to ensure runtime success
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 100 at https://errors.vrl.dev/100
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E100',
    'if true { 1 } else { parse_json("x") }',
    `error[E100]: unhandled error
  ┌─ :1:22
  │
1 │ if true { 1 } else { parse_json("x") }
  │                      ^^^^^^^^^^^^^^^
  │                      │
  │                      expression can result in runtime error
  │                      handle the error case to ensure runtime success
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 100 at https://errors.vrl.dev/100
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'upcase(.b)',
    `error[E110]: invalid argument type
  ┌─ :1:8
  │
1 │ upcase(.b)
  │        ^^
  │        │
  │        this expression resolves to any
  │        but the parameter "value" expects the exact type string
  │
  = try: ensuring an appropriate type at runtime
  =
  =     .b = string!(.b)
  =     upcase(.b)
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     .b = to_string(.b) ?? "default"
  =     upcase(.b)
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'to_syslog_level(.a)',
    `error[E110]: invalid argument type
  ┌─ :1:17
  │
1 │ to_syslog_level(.a)
  │                 ^^
  │                 │
  │                 this expression resolves to any
  │                 but the parameter "value" expects the exact type integer
  │
  = try: ensuring an appropriate type at runtime
  =
  =     .a = int!(.a)
  =     to_syslog_level(.a)
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     .a = to_int(.a) ?? 0
  =     to_syslog_level(.a)
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E102',
    'if "x" { 1 }',
    `error[E102]: non-boolean predicate
  ┌─ :1:4
  │
1 │ if "x" { 1 }
  │    ^^^
  │    │
  │    this predicate must resolve to a boolean
  │    instead it resolves to string
  │
  = hint: coerce the value to the required type using a coercion function
  = see documentation about if expressions at https://vrl.dev/expressions/#if
  = learn more about error code 102 at https://errors.vrl.dev/102
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E102',
    'if .a { 1 }',
    `error[E102]: non-boolean predicate
  ┌─ :1:4
  │
1 │ if .a { 1 }
  │    ^^
  │    │
  │    this predicate must resolve to a boolean
  │    instead it resolves to any
  │
  = hint: coerce the value to the required type using a coercion function
  = see documentation about if expressions at https://vrl.dev/expressions/#if
  = learn more about error code 102 at https://errors.vrl.dev/102
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E103',
    '.a = upcase(.b)',
    `error[E103]: unhandled fallible assignment
  ┌─ :1:6
  │
1 │ .a = upcase(.b)
  │ ---- ^^^^^^^^^^
  │ │    │
  │ │    this expression is fallible because at least one argument's type cannot be verified to be valid
  │ │    update the expression to be infallible by adding a \`!\`: \`upcase!(.b)\`
  │ │    \`.b\` argument type is \`any\` and this function expected a parameter \`value\` of type \`string\`
  │ or change this to an infallible assignment:
  │ .a, err = upcase(.b)
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see functions characteristics documentation at https://vrl.dev/expressions/#function-call-characteristics
  = learn more about error code 103 at https://errors.vrl.dev/103
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E103',
    '.a = parse_json("x")',
    `error[E103]: unhandled fallible assignment
  ┌─ :1:6
  │
1 │ .a = parse_json("x")
  │ ---- ^^^^^^^^^^^^^^^ this expression is fallible because at least one argument's type cannot be verified to be valid
  │ │
  │ or change this to an infallible assignment:
  │ .a, err = parse_json("x")
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see functions characteristics documentation at https://vrl.dev/expressions/#function-call-characteristics
  = learn more about error code 103 at https://errors.vrl.dev/103
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E103',
    'x = if true { parse_json("x") } else { 1 }',
    `error[E103]: unhandled fallible assignment
  ┌─ :1:5
  │
1 │ x = if true { parse_json("x") } else { 1 }
  │ --- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ this expression is fallible because at least one argument's type cannot be verified to be valid
  │ │
  │ or change this to an infallible assignment:
  │ x, err = if true {
	parse_json("x")
} else{
	1
}
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see functions characteristics documentation at https://vrl.dev/expressions/#function-call-characteristics
  = learn more about error code 103 at https://errors.vrl.dev/103
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E104',
    '.a, err = upcase("x")',
    `error[E104]: unnecessary error assignment
  ┌─ :1:5
  │
1 │ .a, err = upcase("x")
  │ --  ^^^   ----------- because this expression can't fail
  │ │   │
  │ │   this error assignment is unnecessary
  │ use: .a = upcase("x")
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 104 at https://errors.vrl.dev/104
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E104',
    '_, err = 1',
    `error[E104]: unnecessary error assignment
  ┌─ :1:4
  │
1 │ _, err = 1
  │ -  ^^^   - because this expression can't fail
  │ │  │
  │ │  this error assignment is unnecessary
  │ use: _ = 1
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 104 at https://errors.vrl.dev/104
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E105',
    '\nunknown_function(.foo, .bar)',
    `error[E105]: call to undefined function
  ┌─ :2:1
  │
2 │ unknown_function(.foo, .bar)
  │ ^^^^^^^^^^^^^^^^
  │ │
  │ undefined function
  │ did you mean "parse_duration"?
  │
  = learn more about error code 105 at https://errors.vrl.dev/105
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E105',
    'foo(1)',
    `error[E105]: call to undefined function
  ┌─ :1:1
  │
1 │ foo(1)
  │ ^^^
  │ │
  │ undefined function
  │ did you mean "bool"?
  │
  = learn more about error code 105 at https://errors.vrl.dev/105
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E106',
    'upcase("a", "b")',
    `error[E106]: wrong number of function arguments
  ┌─ :1:8
  │
1 │ upcase("a", "b")
  │        ^^^^^^^^
  │        │
  │        too many function arguments
  │        this function takes a maximum of 1 argument
  │
  = see documentation about function arguments at https://vrl.dev/expressions/#arguments
  = learn more about error code 106 at https://errors.vrl.dev/106
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E107',
    'upcase()',
    `error[E107]: missing function argument
  ┌─ :1:1
  │
1 │ upcase()
  │ ^^^^^^^^ required argument missing: "value" (position 0)
  │
  = learn more about error code 107 at https://errors.vrl.dev/107
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E107',
    'slice()',
    `error[E107]: missing function argument
  ┌─ :1:1
  │
1 │ slice()
  │ ^^^^^^^ required argument missing: "value" (position 0)
  │
  = learn more about error code 107 at https://errors.vrl.dev/107
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E108',
    'upcase(foo: "a")',
    `error[E108]: unknown function argument keyword
  ┌─ :1:8
  │
1 │ upcase(foo: "a")
  │ ------ ^^^ unknown keyword
  │ │
  │ this function accepts the following keywords: "value"
  │
  = learn more about error code 108 at https://errors.vrl.dev/108
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E109',
    'upcase("a") -> |x| { x }',
    `error[E109]: unexpected closure
  ┌─ :1:13
  │
1 │ upcase("a") -> |x| { x }
  │ ------------^^^^^^^^^^^^
  │ │           │
  │ │           unexpected closure
  │ this function does not accept a closure
  │
  = learn more about error code 109 at https://errors.vrl.dev/109
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'upcase(1)',
    `error[E110]: invalid argument type
  ┌─ :1:8
  │
1 │ upcase(1)
  │        ^
  │        │
  │        this expression resolves to the exact type integer
  │        but the parameter "value" expects the exact type string
  │
  = try: ensuring an appropriate type at runtime
  =
  =     1 = string!(1)
  =     upcase(1)
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     1 = to_string(1) ?? "default"
  =     upcase(1)
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'abs("x")',
    `error[E110]: invalid argument type
  ┌─ :1:5
  │
1 │ abs("x")
  │     ^^^
  │     │
  │     this expression resolves to the exact type string
  │     but the parameter "value" expects one of integer or float
  │
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'ceil(1, "x")',
    `error[E110]: invalid argument type
  ┌─ :1:9
  │
1 │ ceil(1, "x")
  │         ^^^
  │         │
  │         this expression resolves to the exact type string
  │         but the parameter "precision" expects the exact type integer
  │
  = try: ensuring an appropriate type at runtime
  =
  =     "x" = int!("x")
  =     ceil(1, "x")
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     "x" = to_int("x") ?? 0
  =     ceil(1, "x")
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'x = 1\nmerge(x, {})',
    `error[E110]: invalid argument type
  ┌─ :2:7
  │
2 │ merge(x, {})
  │       ^
  │       │
  │       this expression resolves to the exact type integer
  │       but the parameter "to" expects the exact type object
  │
  = try: ensuring an appropriate type at runtime
  =
  =     x = object!(x)
  =     merge(x, {  })
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'x = 1\nformat_timestamp!(x, "%s")',
    `error[E110]: invalid argument type
  ┌─ :2:19
  │
2 │ format_timestamp!(x, "%s")
  │                   ^
  │                   │
  │                   this expression resolves to the exact type integer
  │                   but the parameter "value" expects the exact type timestamp
  │
  = try: ensuring an appropriate type at runtime
  =
  =     x = timestamp!(x)
  =     format_timestamp!(x, "%s")
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     x = to_unix_timestamp(x) ?? now()
  =     format_timestamp!(x, "%s")
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'parse_grok("x", pattern: .a)',
    `error[E110]: invalid argument type
  ┌─ :1:26
  │
1 │ parse_grok("x", pattern: .a)
  │                 -------  ^^ this expression resolves to any
  │                 │
  │                 but the parameter "pattern" expects the exact type string
  │
  = try: ensuring an appropriate type at runtime
  =
  =     .a = string!(.a)
  =     parse_grok("x", .a)
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     .a = to_string(.a) ?? "default"
  =     parse_grok("x", .a)
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E111',
    'for_each({})',
    `error[E111]: missing closure
  ┌─ :1:1
  │
1 │ for_each({})
  │ ^^^^^^^^^^^^ this function expects a closure
  │
  = example: for_each([1, 2]) -> |index, value| { .foo = to_int!(.foo) + index + value }
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E111',
    'map_keys({})',
    `error[E111]: missing closure
  ┌─ :1:1
  │
1 │ map_keys({})
  │ ^^^^^^^^^^^^ this function expects a closure
  │
  = example: map_keys({ "one" : 1, "two": 2 }) -> |key| { upcase(key) }
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E120',
    'for_each({}) -> |k| { 1 }',
    `error[E120]: invalid closure arity
  ┌─ :1:1
  │
1 │ for_each({}) -> |k| { 1 }
  │ ^^^^^^^^         - but 1 argument(s) are supplied
  │ │
  │ this function requires a closure with 2 argument(s)
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E122',
    'map_keys({}) -> |k| { 1 }',
    `error[E122]: type mismatch in closure return type
  ┌─ :1:21
  │
1 │ map_keys({}) -> |k| { 1 }
  │                     ^^^^^
  │                     │
  │                     block returns invalid value type
  │                     received: integer
  │                     expected: string
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E122',
    'filter([1]) -> |i, v| { "x" }',
    `error[E122]: type mismatch in closure return type
  ┌─ :1:23
  │
1 │ filter([1]) -> |i, v| { "x" }
  │                       ^^^^^^^
  │                       │
  │                       block returns invalid value type
  │                       received: string
  │                       expected: boolean
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E113',
    'abort 1',
    `error[E113]: non-string abort message
  ┌─ :1:7
  │
1 │ abort 1
  │       ^
  │       │
  │       abort only accepts an expression argument resolving to a string
  │       this expression resolves to integer
  │
  = hint: coerce the value to the required type using a coercion function
  = see documentation about type coercion at https://functions.vrl.dev/#coerce-functions
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E610',
    'del(1)',
    `error[E610]: function compilation error: error[E400] unexpected expression type
  ┌─ :1:1
  │
1 │ del(1)
  │ ^^^^^^
  │ │
  │ unexpected expression for argument "target"
  │ expected: query
  │ received: literal
  │
  = learn more about error code 400 at https://errors.vrl.dev/400
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E610',
    'x = {}\ndel(x)',
    `error[E610]: function compilation error: error[E400] unexpected expression type
  ┌─ :2:1
  │
2 │ del(x)
  │ ^^^^^^
  │ │
  │ unexpected expression for argument "target"
  │ expected: query
  │ received: variable call
  │
  = learn more about error code 400 at https://errors.vrl.dev/400
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E610',
    'parse_user_agent("x", mode: "foo")',
    `error[E610]: function compilation error: error[E401] invalid enum variant"
  ┌─ :1:1
  │
1 │ parse_user_agent("x", mode: "foo")
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  │ │
  │ invalid enum variant for argument "mode"
  │ expected one of: "fast", "reliable", "enriched"
  │ received: "foo"
  │
  = learn more about error code 401 at https://errors.vrl.dev/401
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E620',
    'upcase!("a")',
    `warning[E620]: can't abort infallible function
  ┌─ :1:1
  │
1 │ upcase!("a")
  │ ^^^^^^- remove this abort (!) instruction
  │ │
  │ this function can't fail
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E630',
    'upcase(parse_json("1"))',
    `error[E630]: fallible argument
  ┌─ :1:8
  │
1 │ upcase(parse_json("1"))
  │        ^^^^^^^^^^^^^^^
  │        │
  │        this expression can fail
  │        handle the error before passing it in as an argument
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E630',
    'upcase!(parse_json("1"))',
    `error[E630]: fallible argument
  ┌─ :1:9
  │
1 │ upcase!(parse_json("1"))
  │         ^^^^^^^^^^^^^^^
  │         │
  │         this expression can fail
  │         handle the error before passing it in as an argument
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E631',
    'abort upcase(.x)',
    `error[E631]: unhandled fallible expression
  ┌─ :1:7
  │
1 │ abort upcase(.x)
  │       ^^^^^^^^^^
  │       │
  │       abort only accepts an infallible expression argument
  │       handle errors before using the expression as an abort message
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E631',
    'return parse_json("x")',
    `error[E631]: unhandled fallible expression
  ┌─ :1:1
  │
1 │ return parse_json("x")
  │ ^^^^^^
  │ │
  │ return only accepts an infallible expression argument
  │ handle errors before using the expression as a return value
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E640',
    '_ = 1',
    `error[E640]: unnecessary no-op assignment
  ┌─ :1:5
  │
1 │ _ = 1
  │ --- ^ this no-op assignment has no effect
  │ │
  │ or remove the assignment
  │ either assign to a path or variable here
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E642',
    '.a.b = 1\n.a[0] = 2',
    `error[E642]: parent path segment rejects this mutation
  ┌─ :2:3
  │
2 │ .a[0] = 2
  │ --^^^ indexing into a non-array type is unsupported
  │ │
  │ this path resolves to a value of type object
  │
  = try: change parent value to array, before assignment
  =
  =     .a = []
  =     .a[0] = 2
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E642',
    'x = 1\nx.a = 2',
    `error[E642]: parent path segment rejects this mutation
  ┌─ :2:3
  │
2 │ x.a = 2
  │ - ^ querying a field of a non-object type is unsupported
  │ │
  │ this path resolves to a value of type integer
  │
  = try: change parent value to object, before assignment
  =
  =     x = {}
  =     x.a = 2
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E651',
    '\n"foo" ?? "bar"',
    `error[E651]: unnecessary error coalescing operation
  ┌─ :2:1
  │
2 │ "foo" ?? "bar"
  │ ^^^^^ -- ----- this expression never resolves
  │ │     │
  │ │     remove this error coalescing operation
  │ this expression can't fail
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E651',
    'x = parse_json!("1") ?? 2',
    `error[E651]: unnecessary error coalescing operation
  ┌─ :1:5
  │
1 │ x = parse_json!("1") ?? 2
  │     ^^^^^^^^^^^^^^^^ -- - this expression never resolves
  │     │                │
  │     │                remove this error coalescing operation
  │     this expression can't fail
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E652',
    '. |= 1',
    `error[E652]: only objects can be merged
  ┌─ :1:6
  │
1 │ . |= 1
  │      ^ this expression must resolve to an object
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E652',
    '.a |= {}',
    `error[E652]: only objects can be merged
  ┌─ :1:1
  │
1 │ .a |= {}
  │ ^^ this expression must resolve to an object
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E660',
    '!"x"',
    `error[E660]: non-boolean negation
  ┌─ :1:1
  │
1 │ !"x"
  │ ^--- this expression resolves to string
  │ │
  │ negation only works on boolean values
  │
  = hint: coerce the value to the required type using a coercion function
  = see documentation about type coercion at https://functions.vrl.dev/#coerce-functions
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E660',
    '!.a',
    `error[E660]: non-boolean negation
  ┌─ :1:1
  │
1 │ !.a
  │ ^-- this expression resolves to any
  │ │
  │ negation only works on boolean values
  │
  = hint: coerce the value to the required type using a coercion function
  = see documentation about type coercion at https://functions.vrl.dev/#coerce-functions
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E701',
    'x',
    `error[E701]: call to undefined variable
  ┌─ :1:1
  │
1 │ x
  │ ^
  │ │
  │ undefined variable
  │ did you mean "null"?
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E701',
    'foo = 1\nfo',
    `error[E701]: call to undefined variable
  ┌─ :2:1
  │
2 │ fo
  │ ^^
  │ │
  │ undefined variable
  │ did you mean "foo"?
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E701',
    'if true { y = 1 }\ny',
    `error[E701]: call to undefined variable
  ┌─ :2:1
  │
2 │ y
  │ ^
  │ │
  │ undefined variable
  │ did you mean "null"?
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E900',
    'x = 5 / 2',
    `warning[E900]: unused variable \`x\`
  ┌─ :1:1
  │
1 │ x = 5 / 2
  │ ^ help: use the result of this expression or remove it
  │
  = this expression has no side-effects
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E601',
    ".a = t'2020-13-01T00:00:00Z'",
    `error[E601]: invalid timestamp
  ┌─ :1:6
  │
1 │ .a = t'2020-13-01T00:00:00Z'
  │      ^^^^^^^^^^^^^^^^^^^^^^^ invalid timestamp format: input is out of range
  │
  = see documentation about timestamps at https://vrl.dev/expressions/#timestamp
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E601',
    ".a = t'foo'",
    `error[E601]: invalid timestamp
  ┌─ :1:6
  │
1 │ .a = t'foo'
  │      ^^^^^^ invalid timestamp format: input contains invalid characters
  │
  = see documentation about timestamps at https://vrl.dev/expressions/#timestamp
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E204',
    '.a = ',
    `error[E204]: syntax error
  ┌─ :1:5
  │
1 │ .a =
  │     ^
  │     │
  │     unexpected end of program
  │     expected one of: "identifier", "string literal", "raw string literal", "integer literal", "float literal", "regex literal", "timestamp literal", "function call", "path literal", "if", "null", "true", "false", "abort", "return", "\\n", "_", "!", "[", "{", "("
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E203',
    'if true { 1 } els { 2 }',
    `error[E203]: syntax error
  ┌─ :1:15
  │
1 │ if true { 1 } els { 2 }
  │               ^^^
  │               │
  │               unexpected syntax token: "Identifier"
  │               expected one of: "else", ";", "\\n"
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E203',
    '.a = 1 2',
    `error[E203]: syntax error
  ┌─ :1:8
  │
1 │ .a = 1 2
  │        ^
  │        │
  │        unexpected syntax token: "IntegerLiteral"
  │        expected one of: ";", "\\n", "|", "+", "*", "-", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "??"
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E203',
    'else = 1',
    `error[E203]: syntax error
  ┌─ :1:1
  │
1 │ else = 1
  │ ^^^^
  │ │
  │ unexpected syntax token: "Else"
  │ expected one of: "identifier", "string literal", "raw string literal", "integer literal", "float literal", "regex literal", "timestamp literal", "function call", "path literal", "if", "null", "true", "false", "abort", "return", "\\n", "_", "!", "[", "{", "("
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E209',
    '.a.b = "\\q"',
    `error[E209]: invalid escape character: \\q
  ┌─ :1:10
  │
1 │ .a.b = "\\q"
  │          ^ invalid escape character: q
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E207',
    '.a = "foo',
    `error[E207]: invalid string literal
  ┌─ :1:6
  │
1 │ .a = "foo
  │      ^ invalid string literal
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E650',
    '1 < 2 < 3',
    `error[E650]: comparison operators can't be chained together
  ┌─ :1:7
  │
1 │ 1 < 2 < 3
  │       ^
  │
  = see documentation about comparisons at https://vrl.dev/expressions/#comparison
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E101',
    ".a = r'['",
    `error[E101]: invalid regular expression
  ┌─ :1:6
  │
1 │ .a = r'['
  │      ^^^^ regex parse error: unterminated character class
  │
  = see documentation about regular expressions at https://vrl.dev/expressions/#regular-expression
  = learn more about error code 101 at https://errors.vrl.dev/101
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E206',
    '.a = 99999999999999999999',
    `error[E206]: invalid numeric literal
  ┌─ :1:6
  │
1 │ .a = 99999999999999999999
  │      ^^^^^^^^^^^^^^^^^^^^ invalid numeric literal: number too large to fit in target type
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E652',
    'x = 1 | 2',
    `error[E652]: only objects can be merged
  ┌─ :1:5
  │
1 │ x = 1 | 2
  │     ^   ^ this expression must resolve to an object
  │     │
  │     this expression must resolve to an object
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E652',
    'x = {"a": 1} | .b',
    `error[E652]: only objects can be merged
  ┌─ :1:16
  │
1 │ x = {"a": 1} | .b
  │                ^^ this expression must resolve to an object
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E121',
    'for_each(.a) -> |k, v| { null }',
    `error[E121]: type mismatch in closure parameter
  ┌─ :1:1
  │
1 │ for_each(.a) -> |k, v| { null }
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  │ │
  │ the closure tied to this function call expects a different input value
  │ expression has an inferred type of any where an array or object was expected
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'x = upcase(1)\nx',
    `error[E110]: invalid argument type
  ┌─ :1:12
  │
1 │ x = upcase(1)
  │            ^
  │            │
  │            this expression resolves to the exact type integer
  │            but the parameter "value" expects the exact type string
  │
  = try: ensuring an appropriate type at runtime
  =
  =     1 = string!(1)
  =     upcase(1)
  =
  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails
  =
  =     1 = to_string(1) ?? "default"
  =     upcase(1)
  =
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E105',
    'x = foo(1)\nx',
    `error[E105]: call to undefined function
  ┌─ :1:5
  │
1 │ x = foo(1)
  │     ^^^
  │     │
  │     undefined function
  │     did you mean "bool"?
  │
  = learn more about error code 105 at https://errors.vrl.dev/105
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E104',
    '.result, err = ends_with("a", "b", case_sensitive: false)',
    `error[E104]: unnecessary error assignment
  ┌─ :1:10
  │
1 │ .result, err = ends_with("a", "b", case_sensitive: false)
  │ -------  ^^^   ------------------------------------------ because this expression can't fail
  │ │        │
  │ │        this error assignment is unnecessary
  │ use: .result = ends_with("a", "b", false)
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 104 at https://errors.vrl.dev/104
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E110',
    'get!(value: 1, path: [0])',
    `error[E110]: invalid argument type
  ┌─ :1:13
  │
1 │ get!(value: 1, path: [0])
  │      -------^
  │      │      │
  │      │      this expression resolves to the exact type integer
  │      but the parameter "value" expects one of array or object
  │
  = learn more about error code 110 at https://errors.vrl.dev/110
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E104',
    '.r, err = encode_json({"b": 1, "a": t\'2021-01-01T00:00:00+00:00\'})',
    `error[E104]: unnecessary error assignment
  ┌─ :1:5
  │
1 │ .r, err = encode_json({"b": 1, "a": t'2021-01-01T00:00:00+00:00'})
  │ --  ^^^   -------------------------------------------------------- because this expression can't fail
  │ │   │
  │ │   this error assignment is unnecessary
  │ use: .r = encode_json({ "a": t'2021-01-01T00:00:00Z', "b": 1 })
  │
  = see documentation about error handling at https://errors.vrl.dev/#handling
  = learn more about error code 104 at https://errors.vrl.dev/104
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E205',
    'for = 1',
    `error[E205]: reserved keyword
  ┌─ :1:1
  │
1 │ for = 1
  │ ^^^
  │ │
  │ this identifier name is reserved for future use in the language
  │ use a different name instead
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E205',
    'array = 1',
    `error[E205]: reserved keyword
  ┌─ :1:1
  │
1 │ array = 1
  │ ^^^^^
  │ │
  │ this identifier name is reserved for future use in the language
  │ use a different name instead
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E208',
    ".a = s'abc",
    `error[E208]: invalid literal
  ┌─ :1:6
  │
1 │ .a = s'abc
  │      ^ invalid literal
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E610',
    'match_datadog_query({}, "a:(")',
    // VRL's parser of the query is pest: its message there is pest's, with the position of the error.
    `error[E610]: function compilation error: error[E0] invalid query: expected a value at "("
 = see language documentation at https://vrl.dev
 = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E610',
    'parse_etld!("a.b", psl: "/nonexistent/psl.dat")',
    `error[E610]: function compilation error: error[E403] invalid argument
  ┌─ :1:1
  │
1 │ parse_etld!("a.b", psl: "/nonexistent/psl.dat")
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  │ │
  │ invalid argument "psl"
  │ error: Unable to read psl file
  │ received: "/nonexistent/psl.dat"
  │
  = learn more about error code 403 at https://errors.vrl.dev/403
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
  [
    'E900',
    '"foo"\n.a = 1',
    `warning[E900]: unused literal \`"foo"\`
  ┌─ :1:1
  │
1 │ "foo"
  │ ^^^^^ help: use the result of this expression or remove it
  │
  = this expression has no side-effects
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  ],
];

/** The first diagnostic's code and the rendered text: errors from the rejection, else the warnings. */
async function outcome(source: string): Promise<{ code: number | undefined; text: string }> {
  try {
    const program = checkProgram(source);
    return { code: program.warnings[0]?.code, text: renderDiagnostics(source, program.warnings) };
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    return { code: e.diagnostics[0]?.code, text: e.message };
  }
}

for (const [code, source, rendered] of TABLE) {
  test(`${code}: ${JSON.stringify(source)}`, async () => {
    const { code: got, text } = await outcome(source);
    assert.is(text, rendered);
    assert.is(`E${String(got).padStart(3, '0')}`, code);
  });
}

test('warnings are exposed on the program and do not fail compilation', async () => {
  const program = checkProgram('upcase!("a")');
  assert.equal(
    program.warnings.map((w) => w.code),
    [620],
  );
  const unused = checkProgram('x = 5 / 2');
  assert.equal(
    unused.warnings.map((w) => [w.code, w.message]),
    [[900, 'unused variable `x`']],
  );
});

test('a program with errors reports its errors only, in source order', async () => {
  try {
    checkProgram('upcase!("a")\nfoo(1)\nbar(2)');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CompileError);
    assert.equal(
      (e as CompileError).diagnostics.map((d) => d.code),
      [105, 105],
    );
  }
});

/** The codes of a program's rejection. */
function rejectedCodes(source: string): number[] {
  try {
    checkProgram(source);
    return [];
  } catch (e) {
    if (e instanceof CompileError) return e.diagnostics.map((d) => d.code);
    throw e;
  }
}

test('every unhandled error of a program is reported in one pass (VRL 0.33)', () => {
  // The changelog's example: the E103 no longer hides the unhandled `push` before it (reported in source order).
  assert.equal(rejectedCodes('{\n    push(.x, 1)\n    .b = push(.y, 2)\n}'), [110, 103]);
  assert.equal(rejectedCodes('parse_json(.a)\nparse_json(.b)\n.c = parse_int(.d)'), [110, 110, 103]);
  assert.equal(rejectedCodes('{ parse_json("a"); parse_json("b") }'), [100, 100]);
  assert.equal(rejectedCodes('parse_int(.a) + parse_int(.b)'), [110, 110]);
  assert.equal(rejectedCodes('if .a == 1 { parse_json("a") } else { parse_json("b") }'), [100, 100]);
  // A construct that handles or reports its operand's error drops that error only.
  assert.equal(
    rejectedCodes('parse_json("a")\nupcase(parse_json("b"))\nx = parse_json("c") ?? 1\nabort parse_json("d")'),
    [100, 630, 631],
  );
  // A hard error stops its statement there, as VRL's compiler does: `parse_json("c")` is not checked.
  assert.equal(rejectedCodes('{ parse_json("a"); upcase(parse_json("b")); parse_json("c") }'), [100, 630]);
  assert.equal(rejectedCodes('for_each({}) -> |_k, v| { return parse_json(v) }'), [631]);
  // One fallible expression is one error, however deep the operation around it.
  assert.equal(rejectedCodes('1 + length(parse_json("a"))'), [630]);
  assert.equal(rejectedCodes('1 + (2 * parse_int("3"))'), [100]);
  checkProgram('.x, err = { push(.x, 1); push(.y, 2) }');
  checkProgram('.x = { parse_json("a"); parse_json("b") } ?? null');
});

/** The diagnostics of a program's rejection. */
function rejection(source: string, options: CompileOptions = {}): readonly Diagnostic[] {
  try {
    checkProgram(source, options);
  } catch (e) {
    if (e instanceof CompileError) return e.diagnostics;
    throw e;
  }
  throw new Error(`${source} compiles`);
}
const primarySpans = (ds: readonly Diagnostic[]) =>
  ds.map((d) => [d.code, d.labels.filter((l) => l.primary).map((l) => l.span)]);

test('E650: every statement with a chained comparison, on the comparison whose left side is one', () => {
  // VRL's own test (lib/tests/tests/diagnostics/chained_comparison_operator.vrl).
  const source = '\n2 < 3 < 4\ntrue == false == true\n';
  assert.is(
    renderDiagnostics(source, [...rejection(source)]),
    `error[E650]: comparison operators can't be chained together
  ┌─ :2:7
  │
2 │ 2 < 3 < 4
  │       ^
  │
  = see documentation about comparisons at https://vrl.dev/expressions/#comparison
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples

error[E650]: comparison operators can't be chained together
  ┌─ :3:15
  │
3 │ true == false == true
  │               ^^
  │
  = see documentation about comparisons at https://vrl.dev/expressions/#comparison
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples`,
  );
  // The failed inner comparison stops the outer one (VRL compiles the left side first and gives up).
  assert.equal(primarySpans(rejection('1 < 2 < 3 < 4')), [[650, [[6, 7]]]]);
  assert.equal(primarySpans(rejection('1 < 2 == true')), [[650, [[6, 8]]]]);
  assert.equal(primarySpans(rejection('x = 1 < 2 < 3; y = 4 != 5 == 6')), [
    [650, [[10, 11]]],
    [650, [[26, 28]]],
  ]);
  // One per statement: an array, a call's arguments or a block stop at their first failed expression…
  assert.equal(primarySpans(rejection('[1 < 2 < 3, 4 < 5 < 6]')), [[650, [[7, 8]]]]);
  assert.equal(primarySpans(rejection('(1 < 2 < 3) || (4 < 5 < 6)')), [[650, [[7, 8]]]]);
  assert.equal(primarySpans(rejection('{ 1 < 2 < 3; 4 < 5 < 6 }')), [[650, [[8, 9]]]]);
  assert.equal(primarySpans(rejection('if true { 1 < 2 < 3 } else { 4 < 5 < 6 }')), [[650, [[16, 17]]]]);
  // …an object literal checks every value.
  assert.equal(primarySpans(rejection('{"a": 1 < 2 < 3, "b": 4 < 5 < 6}')), [
    [650, [[12, 13]]],
    [650, [[28, 29]]],
  ]);
  // The operation's unhandled errors go with it; an error on its right side comes first.
  assert.equal(rejectedCodes('to_int(.a) < 2 < 3'), [650]);
  assert.equal(rejectedCodes('1 < 2 < upcase(1)'), [110]);
  for (const source of ['true == 1 < 2', '(1 < 2) < 3 ?? false', '1 < 2 && 2 < 3']) checkProgram(source);
});

test('E315: with a read-only event, writes to it and `del` of it are refused; metadata and variables stay writable', () => {
  const readOnly = { readOnlyEvent: true };
  // VRL's spans: the target up to the value, or each target of `ok, err =`.
  assert.equal(primarySpans(rejection('.a = 1', readOnly)), [[315, [[0, 4]]]]);
  assert.equal(primarySpans(rejection('. |= {"a": 1}', readOnly)), [[315, [[0, 4]]]]);
  assert.equal(primarySpans(rejection('x, .err = parse_json("1")', readOnly)), [[315, [[3, 7]]]]);
  assert.equal(primarySpans(rejection('del(.a.b)', readOnly)), [[610, [[0, 9]]]]);
  assert.match(rejection('del(.a.b)', readOnly)[0]!.message, 'error[E315] mutation of read-only value');
  for (const source of ['%a = .b; x = .c; del(%a); del(x.y); true', '.a = 1']) {
    checkProgram(source, source.startsWith('%') ? readOnly : {});
  }
});

test.run();
