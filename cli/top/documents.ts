// The GraphQL documents Vector 0.54's `vector top` sends, unchanged (cli/vector-documents/), so svc top speaks
// to a Vector instance as well as to svc, and svc's API is exercised the way Vector's clients use it.

import { vectorDocument } from '../vector-documents.js';

export const COMPONENTS_QUERY = vectorDocument('queries/components.graphql');
export const COMPONENT_ADDED = vectorDocument('subscriptions/component_added.graphql');
export const COMPONENT_REMOVED = vectorDocument('subscriptions/component_removed.graphql');
export const RECEIVED_EVENTS_TOTALS = vectorDocument('subscriptions/component_received_events_totals.graphql');
export const RECEIVED_EVENTS_THROUGHPUTS = vectorDocument(
  'subscriptions/component_received_events_throughputs.graphql',
);
export const RECEIVED_BYTES_TOTALS = vectorDocument('subscriptions/component_received_bytes_totals.graphql');
export const RECEIVED_BYTES_THROUGHPUTS = vectorDocument('subscriptions/component_received_bytes_throughputs.graphql');
export const SENT_EVENTS_TOTALS = vectorDocument('subscriptions/component_sent_events_totals.graphql');
export const SENT_EVENTS_THROUGHPUTS = vectorDocument('subscriptions/component_sent_events_throughputs.graphql');
export const SENT_BYTES_TOTALS = vectorDocument('subscriptions/component_sent_bytes_totals.graphql');
export const SENT_BYTES_THROUGHPUTS = vectorDocument('subscriptions/component_sent_bytes_throughputs.graphql');
export const ERRORS_TOTALS = vectorDocument('subscriptions/component_errors_totals.graphql');
