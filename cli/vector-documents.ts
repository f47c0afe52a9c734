// Vector 0.54's own GraphQL documents (cli/vector-documents/, see its README), read where the package keeps
// them. Resolved from a module one level below dist/, where it sits both as tsc builds it (dist/cli/) and as
// the CLI bundles it (dist/bin/): two levels up is the package either way.

import { readFileSync } from 'node:fs';

const DOCUMENTS = new URL('../../cli/vector-documents/', import.meta.url);

/** The text of a document, by its path under cli/vector-documents/ (`subscriptions/heartbeat.graphql`). */
export function vectorDocument(name: string): string {
  return readFileSync(new URL(name, DOCUMENTS), 'utf8');
}
