// How the stdlib's access log parser types a field (stdlib-as/access-log.ts): the integers of the field
// object the compiler gives it (compiler/codegen/builtins.ts). Shared by tsc and asc (see values.ts).

export const enum LogFieldType {
  Integer = 1,
  Float = 2,
  Timestamp = 3,
}
