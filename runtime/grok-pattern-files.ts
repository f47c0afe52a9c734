// Where logstash's grok pattern files are: runtime/logstash-patterns/ (see its README). Resolved from a module
// one level below dist/, where it sits both as tsc builds it (dist/runtime/) and as the CLI bundles it
// (dist/bin/): two levels up is the package either way.

export const LOGSTASH_PATTERN_DIRECTORY = new URL('../../runtime/logstash-patterns/', import.meta.url);
