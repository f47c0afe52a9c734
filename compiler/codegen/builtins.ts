// Per-function lowering: the remap functions the code generator emits itself (they take paths or closures,
// or are answered at compile time) and the calls it compiles its own way when their arguments allow. The
// generator calls `lowerIntrinsic` and `lowerSpecialized`; they see it only through `CodegenContext`.

import type * as ast from '../ast.js';
import type { ResolvedCall } from '../check/result.js';
import { constantOf } from '../types/constant.js';
import { kindDebugInfo } from '../types/debug-info.js';
import { ProgramKind, strftimeProgram } from '../../abi/strftime-program.js';
import {
  APACHE_LOG_FORMATS,
  COMMON_LOG_FORMAT,
  NGINX_LOG_FORMATS,
  type FieldType,
  type LogFormat,
} from '../../abi/access-log.js';
import { LogFieldType } from '../../abi/wire/access-log.js';
import { Tag } from '../../abi/wire/values.js';
import type { ExpressionRef } from './binaryen.js';
import { MissingImplementation, type CodegenContext } from './context.js';

/**
 * Functions the generator emits itself (definitions with `backing: { kind: 'intrinsic' }`), by name.
 * scripts/gen-function-index.mjs checks that every such definition has its entry here.
 */
const INTRINSICS: Readonly<Record<string, (ctx: CodegenContext, e: ast.Call, call: ResolvedCall) => ExpressionRef>> = {
  del,
  exists,
  filter: (ctx, e, call) => iterate(ctx, e, call, 'filter'),
  for_each: (ctx, e, call) => iterate(ctx, e, call, 'for_each'),
  map_keys: (ctx, e, call) => mapCall(ctx, e, call, 'map_keys'),
  map_values: (ctx, e, call) => mapCall(ctx, e, call, 'map_values'),
  replace_with: replaceWith,
  type_def: typeDef,
  unnest,
};

/**
 * Calls compiled their own way when their arguments allow, by name: the code, or undefined for the
 * function's implementation (strftime formats run in the stdlib where they can). `log` always is: its
 * implementation also takes the call's position.
 */
const SPECIALIZED: Readonly<
  Record<
    string,
    (ctx: CodegenContext, e: ast.Call, call: ResolvedCall, operands: () => ExpressionRef[]) => ExpressionRef | undefined
  >
> = {
  format_timestamp: formatTimestamp,
  log,
  parse_common_log: (ctx, e, call, operands) => accessLog(ctx, e, call, operands, COMMON_LOG_FORMAT),
  parse_grok: (ctx, e, call, operands) => orImplementation(ctx, e, call, operands, ctx.call('grok_parse', operands())),
  parse_timestamp: parseTimestamp,
  parse_websrv1_log: (ctx, e, call, operands) =>
    accessLog(ctx, e, call, operands, namedFormat(APACHE_LOG_FORMATS, call)),
  parse_websrv2_log: (ctx, e, call, operands) =>
    accessLog(ctx, e, call, operands, namedFormat(NGINX_LOG_FORMATS, call)),
};

/** The code of a call of an intrinsic function; it evaluates the arguments it needs itself. */
export function lowerIntrinsic(ctx: CodegenContext, e: ast.Call, call: ResolvedCall): ExpressionRef {
  const lower = INTRINSICS[call.def.name];
  if (!lower) throw new MissingImplementation(call.def.name, e.nameSpan);
  return lower(ctx, e, call);
}

/**
 * The code of a call compiled its own way, or undefined for the function's implementation. `operands` gives
 * fresh reads of the evaluated arguments in parameter order (0 for an absent one).
 */
export function lowerSpecialized(
  ctx: CodegenContext,
  e: ast.Call,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
): ExpressionRef | undefined {
  return SPECIALIZED[call.def.name]?.(ctx, e, call, operands);
}

/** The expression of the argument bound to the parameter `name`, when given. */
const arg = (call: ResolvedCall, name: string): ast.Expr | undefined => call.args[name]?.expr;

/**
 * `log` rate limits per call site, as VRL does, and the host writes the site as `vrl_position`: the stdlib
 * takes the call's byte offset in the program after the arguments.
 */
function log(ctx: CodegenContext, e: ast.Call, _call: ResolvedCall, operands: () => ExpressionRef[]): ExpressionRef {
  return ctx.call('fn_log', [...operands(), ctx.m.i32.const(e.span[0])]);
}

/**
 * `format_timestamp` in UTC (no `timezone`) runs in the stdlib: a literal format as its program built here,
 * any other as the program the runtime builds once per distinct format. A format without one (an error, or
 * a specifier only the JS function has) goes to the JS function.
 */
function formatTimestamp(
  ctx: CodegenContext,
  e: ast.Call,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
): ExpressionRef | undefined {
  if (call.args.timezone) return undefined;
  const found = strftimeFormat(ctx, ProgramKind.UtcFormat, call, operands);
  if (!found) return undefined;
  const format = (program: ExpressionRef) => ctx.call('strftime_format_utc', [operands()[0]!, program]);
  if (found.literal) return format(found.program);
  const m = ctx.m;
  const program = ctx.local();
  return m.block(
    null,
    [
      m.local.set(program, found.program),
      m.if(
        m.i32.eqz(m.local.get(program, ctx.b.i32)),
        ctx.implementation(e, call, operands()),
        format(m.local.get(program, ctx.b.i32)),
      ),
    ],
    ctx.b.i32,
  );
}

/**
 * `parse_timestamp` without `timezone`, or with a literal one, runs the format's program in the stdlib (built
 * as for `format_timestamp`), which reads what it can; the JS function answers the rest, errors and their
 * messages included.
 */
function parseTimestamp(
  ctx: CodegenContext,
  e: ast.Call,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
): ExpressionRef | undefined {
  // A literal `timezone` is looked up by the host per time read (`svc_js.tz_offset_in`); any other is the JS function's.
  const zone = call.args.timezone && constantOf(call.args.timezone.expr);
  if (call.args.timezone && zone?.kind !== 'string') return undefined;
  const found = strftimeFormat(ctx, ProgramKind.Parse, call, operands);
  if (!found) return undefined;
  const m = ctx.m;
  const program = ctx.local();
  const get = () => m.local.get(program, ctx.b.i32);
  const zoneValue = zone?.kind === 'string' ? ctx.constant(ctx.pool.bytes(zone.value)) : m.i32.const(0);
  return orImplementation(
    ctx,
    e,
    call,
    operands,
    m.block(
      null,
      [
        m.local.set(program, found.program),
        m.if(m.i32.eqz(get()), m.i32.const(0), ctx.call('strftime_parse', [operands()[0]!, get(), zoneValue])),
      ],
      ctx.b.i32,
    ),
  );
}

const LOG_FIELD_TYPES: Readonly<Record<FieldType, LogFieldType>> = {
  integer: LogFieldType.Integer,
  float: LogFieldType.Float,
  timestamp: LogFieldType.Timestamp,
};

/** The format a call's literal `format` names, if any. */
function namedFormat(formats: Readonly<Record<string, LogFormat>>, call: ResolvedCall): LogFormat | undefined {
  const name = call.args.format && constantOf(call.args.format.expr);
  return name?.kind === 'string' ? formats[name.value] : undefined;
}

/**
 * The access and error log parsers run in the stdlib (`access_log_parse`) when the format and the timestamp
 * format are known here: the format's regex and field types as constants, the time's strftime program. What
 * the stdlib does not read as the JS function would (no match, a field that does not convert, a float, a time
 * it leaves to JS) it gives as 0, and the JS function answers, with its errors.
 */
function accessLog(
  ctx: CodegenContext,
  e: ast.Call,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
  format: LogFormat | undefined,
): ExpressionRef | undefined {
  const given = call.args.timestamp_format && constantOf(call.args.timestamp_format.expr);
  if (!format || (call.args.timestamp_format && given?.kind !== 'string')) return undefined;
  const program = strftimeProgram(ProgramKind.Parse, given?.kind === 'string' ? given.value : format.timestampFormat);
  if (!program) return undefined;
  const types = new Map(
    Object.entries(format.types).map(([name, type]) => [
      name,
      { kind: 'integer' as const, value: BigInt(LOG_FIELD_TYPES[type]) },
    ]),
  );
  return orImplementation(
    ctx,
    e,
    call,
    operands,
    ctx.call('access_log_parse', [
      operands()[0]!,
      ctx.constant(ctx.pool.value({ kind: 'regex', pattern: format.pattern, flags: '' })),
      ctx.constant(ctx.pool.value({ kind: 'object', fields: types })),
      ctx.constant(ctx.pool.bytesValue(program)),
    ]),
  );
}

/** `stdlib`'s value, or the function's implementation where it gave 0 (what the stdlib leaves to JS). */
function orImplementation(
  ctx: CodegenContext,
  e: ast.Call,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
  stdlib: ExpressionRef,
): ExpressionRef {
  const m = ctx.m;
  const value = ctx.local();
  const get = () => m.local.get(value, ctx.b.i32);
  return m.block(
    null,
    [
      m.local.set(value, stdlib),
      m.if(m.i32.eqz(get()), m.local.set(value, ctx.implementation(e, call, operands()))),
      get(),
    ],
    ctx.b.i32,
  );
}

/**
 * The strftime program of a call's `format`: a constant for a literal (undefined when it has none), else the
 * stdlib's lookup at run time, which gives 0 for a format without one.
 */
function strftimeFormat(
  ctx: CodegenContext,
  kind: ProgramKind,
  call: ResolvedCall,
  operands: () => ExpressionRef[],
): { program: ExpressionRef; literal: boolean } | undefined {
  const format = call.args.format;
  const constant = format && constantOf(format.expr);
  if (constant?.kind === 'string') {
    const program = strftimeProgram(kind, constant.value);
    return program && { program: ctx.constant(ctx.pool.bytesValue(program)), literal: true };
  }
  return { program: ctx.call('strftime_program', [ctx.m.i32.const(kind), operands()[1]!]), literal: false };
}

/** `del(path, compact)`: removes through the path's cell; on an expression target only reads. */
function del(ctx: CodegenContext, _e: ast.Call, call: ResolvedCall): ExpressionRef {
  const path = arg(call, 'target') as ast.Query;
  const cell = ctx.cellOf(path.target);
  if (!cell) return ctx.query(path);
  const compact = arg(call, 'compact');
  const flag = compact ? ctx.isTrue(ctx.expr(compact)) : ctx.m.i32.const(0);
  return ctx.call('path_remove', [cell, ctx.pathDescriptor(path.path), flag]);
}

/** `type_def(value)`: the argument's type, known at compile time; the argument itself is not evaluated (as VRL). */
function typeDef(ctx: CodegenContext, _e: ast.Call, call: ResolvedCall): ExpressionRef {
  const kind = ctx.kindOf(arg(call, 'value')!);
  if (!kind) throw new Error('internal: type_def argument has no type');
  return ctx.constant(ctx.pool.value(kindDebugInfo(kind)));
}

/** `unnest(path)`: one copy of the path's root per item of the array at the path. */
function unnest(ctx: CodegenContext, _e: ast.Call, call: ResolvedCall): ExpressionRef {
  const path = arg(call, 'path') as ast.Query;
  return ctx.checked(ctx.call('path_unnest', [ctx.queryRoot(path.target), ctx.pathDescriptor(path.path)]));
}

/** `exists(path)`: whether the path is there, without reading its value. */
function exists(ctx: CodegenContext, _e: ast.Call, call: ResolvedCall): ExpressionRef {
  const path = arg(call, 'field') as ast.Query;
  return ctx.boolValue(ctx.call('path_exists', [ctx.queryRoot(path.target), ctx.pathDescriptor(path.path)]));
}

/** `map_values` and `map_keys`: a helper function walks the value, calling the closure. */
function mapCall(ctx: CodegenContext, e: ast.Call, call: ResolvedCall, kind: 'map_values' | 'map_keys'): ExpressionRef {
  const input = ctx.expr(arg(call, 'value')!);
  const recursive = arg(call, 'recursive');
  const flag = recursive ? ctx.isTrue(ctx.expr(recursive)) : ctx.m.i32.const(0);
  const helper = mapHelper(ctx, e.closure!, kind);
  // 0 means the closure failed (message pending) or aborted: an abort leaves this function too.
  return ctx.checked(ctx.m.call(helper, [input, flag], ctx.b.i32), [
    ctx.m.if(ctx.call('current_outcome', []), ctx.m.return(ctx.m.i32.const(0))),
  ]);
}

/** `for_each` and `filter`: a loop over entries (key, value) or items (index, value) in this function. */
function iterate(ctx: CodegenContext, e: ast.Call, call: ResolvedCall, kind: 'for_each' | 'filter'): ExpressionRef {
  const input = ctx.expr(arg(call, 'value')!);
  const closure = e.closure!;
  const m = ctx.m;
  const i32 = ctx.b.i32;
  const c = ctx.local();
  const n = ctx.local();
  const i = ctx.local();
  const isObject = ctx.local();
  const result = ctx.local();
  // for_each drops what its closure gives: nothing holds the value of its last expression.
  const { slots, body } = ctx.closureBody(closure, kind !== 'for_each');
  const [keySlot, valueSlot] = slots;
  const get = (l: number) => m.local.get(l, i32);
  const item = m.if(get(isObject), ctx.call('object_value', [get(c), get(i)]), ctx.call('array_get', [get(c), get(i)]));
  const key = m.if(
    get(isObject),
    ctx.call('object_key', [get(c), get(i)]),
    ctx.call('new_int', [m.i64.extend_u(get(i))]),
  );
  const value = ctx.local();
  const keyValue = ctx.local();
  const step: ExpressionRef[] = [
    m.local.set(keyValue, key),
    m.local.set(value, ctx.call('value_share', [item])),
    ...(keySlot !== undefined ? [ctx.storeSlot(keySlot, get(keyValue))] : []),
    ...(valueSlot !== undefined ? [ctx.storeSlot(valueSlot, get(value))] : []),
  ];
  if (kind === 'for_each') {
    step.push(m.drop(body));
  } else {
    step.push(
      m.if(
        ctx.isTrue(body),
        m.if(
          get(isObject),
          ctx.call(
            'object_set',
            [get(result), ctx.call('bytes_ptr', [get(keyValue)]), ctx.call('bytes_len', [get(keyValue)]), get(value)],
            ctx.b.none,
          ),
          ctx.call('array_push', [get(result), get(value)], ctx.b.none),
        ),
      ),
    );
  }
  const exit = ctx.label('done');
  const next = ctx.label('next');
  const tag = ctx.local();
  // A value that is not a collection (the root of a string event, say): VRL's for_each runs the closure
  // on none of it, its filter fails.
  const notCollection = () => m.i32.lt_u(get(tag), m.i32.const(Tag.Array));
  return m.block(
    null,
    [
      m.local.set(c, input),
      m.local.set(tag, ctx.call('value_tag', [get(c)])),
      kind === 'filter'
        ? m.if(
            notCollection(),
            m.block(null, [
              m.drop(ctx.call('fail_value', [ctx.bytesConstant('function requires collection types as input')])),
              ctx.toHandler(),
            ]),
          )
        : m.nop(),
      m.local.set(isObject, m.i32.eq(get(tag), m.i32.const(Tag.Object))),
      m.local.set(
        n,
        m.if(
          get(isObject),
          ctx.call('object_len', [get(c)]),
          m.if(notCollection(), m.i32.const(0), ctx.call('array_len', [get(c)])),
        ),
      ),
      m.local.set(
        result,
        kind === 'for_each'
          ? ctx.m.i32.const(ctx.std.nullValue)
          : m.if(get(isObject), ctx.call('new_object', [get(n)]), ctx.call('new_array', [get(n)])),
      ),
      m.local.set(i, m.i32.const(0)),
      m.block(exit, [
        m.loop(
          next,
          m.block(null, [
            m.br(exit, m.i32.ge_u(get(i), get(n))),
            ...step,
            m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
            m.br(next),
          ]),
        ),
      ]),
      get(result),
    ],
    i32,
  );
}

/** `replace_with`: the text between matches is kept, each match replaced by the closure's string. */
function replaceWith(ctx: CodegenContext, e: ast.Call, call: ResolvedCall): ExpressionRef {
  const input = ctx.expr(arg(call, 'value')!);
  const closure = e.closure!;
  const m = ctx.m;
  const i32 = ctx.b.i32;
  const get = (l: number) => m.local.get(l, i32);
  const [text, matches, n, i, item, last, acc] = Array.from({ length: 7 }, () => ctx.local());
  const count = arg(call, 'count');
  const limit = count ? m.i32.wrap(m.i64.load(8, 8, ctx.expr(count))) : m.i32.const(-1);
  const { slots, body } = ctx.closureBody(closure);
  const offset = (index: number) =>
    m.i32.wrap(m.i64.load(8, 8, ctx.call('array_get', [get(item), m.i32.const(index)])));
  const append = (piece: ExpressionRef) => m.local.set(acc, ctx.checked(ctx.call('op_add', [get(acc), piece])));
  const exit = ctx.label('done');
  const next = ctx.label('next');
  return m.block(
    null,
    [
      m.local.set(text, input),
      m.local.set(matches, ctx.checked(ctx.call('regex_matches', [get(text), ctx.expr(arg(call, 'pattern')!), limit]))),
      m.local.set(n, ctx.call('array_len', [get(matches)])),
      m.local.set(acc, ctx.bytesConstant('')),
      m.local.set(last, m.i32.const(0)),
      m.local.set(i, m.i32.const(0)),
      m.block(exit, [
        m.loop(
          next,
          m.block(null, [
            m.br(exit, m.i32.ge_u(get(i), get(n))),
            m.local.set(item, ctx.call('array_get', [get(matches), get(i)])),
            append(ctx.call('bytes_slice', [get(text), get(last), offset(0)])),
            slots[0] !== undefined
              ? ctx.storeSlot(slots[0], ctx.call('array_get', [get(item), m.i32.const(2)]))
              : m.nop(),
            append(body),
            m.local.set(last, offset(1)),
            m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
            m.br(next),
          ]),
        ),
      ]),
      append(ctx.call('bytes_slice', [get(text), get(last), ctx.call('bytes_len', [get(text)])])),
      get(acc),
    ],
    i32,
  );
}

/**
 * `map_values` / `map_keys`: a function of its own `(value, recursive) → value`, because the
 * recursive form calls itself on nested containers (after which map_values also maps the container);
 * `recursive` is 0, or 1 plus the nesting level of `value`.
 */
function mapHelper(ctx: CodegenContext, closure: ast.Closure, kind: 'map_values' | 'map_keys'): string {
  const m = ctx.m;
  const i32 = ctx.b.i32;
  return ctx.helperFunction(kind, 2, (name) => {
    const c = 0;
    const recursive = 1;
    const n = ctx.local();
    const i = ctx.local();
    const isObject = ctx.local();
    const tag = ctx.local();
    const result = ctx.local();
    const value = ctx.local();
    const mapped = ctx.local();
    const { slots, body } = ctx.closureBody(closure);
    const get = (l: number) => m.local.get(l, i32);
    const [slot] = slots;
    // VRL maps a value that is not a collection (the root of a string event, say) as a whole: map_values
    // runs the closure once on it, map_keys leaves it as it is.
    const isScalar = () => m.i32.lt_u(get(tag), m.i32.const(Tag.Array));
    const byShape = (object: ExpressionRef, array: ExpressionRef, scalar: ExpressionRef) =>
      m.if(get(isObject), object, m.if(isScalar(), scalar, array));
    const isContainer = (v: ExpressionRef) => m.i32.ge_u(ctx.call('value_tag', [v]), m.i32.const(Tag.Array));
    // Nested containers first (recursive form), then the closure on the value (map_values) or key (map_keys).
    const descend = m.if(
      m.i32.and(m.i32.ne(get(recursive), m.i32.const(0)), isContainer(get(value))),
      m.local.set(
        value,
        m.block(
          null,
          [
            m.local.set(mapped, m.call(name, [get(value), m.i32.add(get(recursive), m.i32.const(1))], i32)),
            m.if(m.i32.eqz(get(mapped)), m.return(m.i32.const(0))),
            get(mapped),
          ],
          i32,
        ),
      ),
    );
    // The closure sees the value (map_values) or the key (map_keys); its result replaces that part.
    const bind =
      slot === undefined
        ? m.nop()
        : ctx.storeSlot(slot, kind === 'map_values' ? get(value) : ctx.call('object_key', [get(c), get(i)]));
    const store =
      kind === 'map_values'
        ? byShape(
            ctx.call(
              'object_set',
              [
                get(result),
                ctx.call('object_key_ptr', [get(c), get(i)]),
                ctx.call('object_key_len', [get(c), get(i)]),
                get(mapped),
              ],
              ctx.b.none,
            ),
            ctx.call('array_push', [get(result), get(mapped)], ctx.b.none),
            m.local.set(result, get(mapped)),
          )
        : m.if(
            get(isObject),
            ctx.call(
              'object_set',
              [get(result), ctx.call('bytes_ptr', [get(mapped)]), ctx.call('bytes_len', [get(mapped)]), get(value)],
              ctx.b.none,
            ),
            ctx.call('array_push', [get(result), get(value)], ctx.b.none),
          );
    // map_keys runs its closure on object keys only; array items are only descended into.
    const step =
      kind === 'map_values'
        ? m.block(null, [bind, m.local.set(mapped, body), store])
        : m.block(null, [m.if(get(isObject), m.block(null, [bind, m.local.set(mapped, body)])), store]);
    const exit = ctx.label('done');
    const next = ctx.label('next');
    const loop = m.block(exit, [
      m.loop(
        next,
        m.block(null, [
          m.br(exit, m.i32.ge_u(get(i), get(n))),
          m.local.set(
            value,
            ctx.call('value_share', [
              kind === 'map_values'
                ? byShape(ctx.call('object_value', [get(c), get(i)]), ctx.call('array_get', [get(c), get(i)]), get(c))
                : m.if(
                    get(isObject),
                    ctx.call('object_value', [get(c), get(i)]),
                    ctx.call('array_get', [get(c), get(i)]),
                  ),
            ]),
          ),
          descend,
          step,
          m.local.set(i, m.i32.add(get(i), m.i32.const(1))),
          m.br(next),
        ]),
      ),
    ]);
    return [
      // `recursive` counts the levels down (stdlib-as/depth.ts): past the limit the value stays as it is.
      m.if(m.i32.eqz(ctx.call('may_descend', [m.i32.sub(get(recursive), m.i32.const(1))])), m.return(get(c))),
      m.local.set(tag, ctx.call('value_tag', [get(c)])),
      kind === 'map_keys' ? m.if(isScalar(), m.return(get(c))) : m.nop(),
      m.local.set(isObject, m.i32.eq(get(tag), m.i32.const(Tag.Object))),
      m.local.set(n, byShape(ctx.call('object_len', [get(c)]), ctx.call('array_len', [get(c)]), m.i32.const(1))),
      m.local.set(result, byShape(ctx.call('new_object', [get(n)]), ctx.call('new_array', [get(n)]), get(c))),
      m.local.set(i, m.i32.const(0)),
      loop,
      m.return(get(result)),
    ];
  });
}
