// Paths that may be glob patterns (`--config` entries, the file source's `include`): tinyglobby, which says
// whether a path is one and expands it, loads only for a path holding one of the characters a pattern needs
// (a run names plain files, mostly, and loading it costs start-up time).

const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/** tinyglobby when any of `paths` may be a pattern, else undefined. */
export async function globberFor(paths: readonly string[]): Promise<typeof import('tinyglobby') | undefined> {
  return paths.some((path) => GLOB_CHARACTERS.test(path)) ? import('tinyglobby') : undefined;
}
