// What the splunk_hec source and the splunk_hec sinks share.

/** Where the splunk_hec source keeps the token a request came with (`store_hec_token`): the splunk_hec sinks
 * send its events with that token rather than `default_token`, as Vector's do. */
export const HEC_TOKEN_METADATA = 'splunk_hec_token';
