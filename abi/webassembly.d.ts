// The WebAssembly JS API as Node 20 provides it. TypeScript only declares it in the DOM libraries, which
// this Node project does not load.

// biome-ignore-all lint/complexity/noBannedTypes: an import or export may be any JS function, as the JS API says

declare namespace WebAssembly {
  type ImportValue = Function | Memory | Global | Table | number | bigint;
  type Imports = Record<string, Record<string, ImportValue>>;
  type Exports = Record<string, Function | Memory | Global | Table>;

  class Module {
    constructor(bytes: BufferSource);
    static customSections(module: Module, name: string): ArrayBuffer[];
    static exports(module: Module): Array<{ name: string; kind: string }>;
    static imports(module: Module): Array<{ module: string; name: string; kind: string }>;
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Exports;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Global {
    value: unknown;
  }
  class Table {
    readonly length: number;
  }
  class RuntimeError extends Error {}
  class CompileError extends Error {}
  class LinkError extends Error {}
  function compile(bytes: BufferSource): Promise<Module>;
  function instantiate(module: Module, imports?: Imports): Promise<Instance>;
  function validate(bytes: BufferSource): boolean;
}

type BufferSource = ArrayBufferView | ArrayBuffer;
