// TEMPORARY stand-in until the config branch lands (replaced at merge).
export interface GlobalOptions {
  data_dir: string;
  timezone: string;
  log_schema: { host_key: string; message_key: string; metadata_key: string; source_type_key: string; timestamp_key: string };
  wildcard_matching: 'strict' | 'relaxed';
}
