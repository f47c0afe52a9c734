// Where logstash's grok pattern files are: runtime/js-functions/support/logstash-patterns/ (see its README).
// This module stays at the top of runtime/ because its URL is resolved from one level below dist/, where it
// sits both as tsc builds it (dist/runtime/) and as the CLI bundles it (dist/bin/): two levels up is the
// package either way.

export const LOGSTASH_PATTERN_DIRECTORY = new URL(
  '../../runtime/js-functions/support/logstash-patterns/',
  import.meta.url,
);
