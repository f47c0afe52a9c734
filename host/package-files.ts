// Files of the package the pipeline reads at run time. This module stays at the top of host/ because its URLs
// are resolved from one level below dist/, where it sits both as tsc builds it (dist/host/) and as the CLI
// bundles it (dist/bin/): two levels up is the package either way.

/** Loki's push request messages (host/components/sinks/loki/push.proto), for the loki sink's protobuf push. */
export const LOKI_PUSH_PROTO = new URL('../../host/components/sinks/loki/push.proto', import.meta.url);

/** Prometheus' remote write messages (host/components/support/prometheus-remote.proto), for the
 * prometheus_remote_write sink and source. */
export const PROMETHEUS_REMOTE_PROTO = new URL(
  '../../host/components/support/prometheus-remote.proto',
  import.meta.url,
);
/** Vector's gRPC service and event protobufs (host/components/support/vector/), for the vector source and sink. */
export const VECTOR_PROTO = new URL('../../host/components/support/vector/vector.proto', import.meta.url);
/** OTLP's protocol definitions (host/components/support/otlp/), for the opentelemetry source and sink. */
export const OTLP_PROTO_DIR = new URL('../../host/components/support/otlp/', import.meta.url);
