// The playground page (a browser module, bundled by scripts/bundle-playground.mjs): GraphiQL on the API of
// the origin serving it, queries by POST to /graphql and subscriptions over WebSocket on /graphql.
// `?query=` and `?variables=` fill the editors, so a link can open the playground on a given operation.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { createClient } from 'graphql-ws/client';
import 'graphiql/style.css';

const DEFAULT_QUERY = `# svc's management API: Vector 0.54's GraphQL schema (see the docs pane).
# Queries run over HTTP, subscriptions over a WebSocket; Ctrl-Enter runs the operation.
{
  health
  meta {
    versionString
    hostname
  }
  components(first: 100) {
    edges {
      node {
        componentId
        componentType
        __typename
      }
    }
  }
}
`;

const http = new URL('/graphql', location.href);
const socket = new URL(http);
socket.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';

const fetcher = createGraphiQLFetcher({
  url: http.href,
  wsClient: createClient({ url: socket.href }),
  // svc answers with one JSON body; no multipart incremental delivery.
  enableIncrementalDelivery: false,
});

const params = new URLSearchParams(location.search);
createRoot(document.getElementById('playground')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: DEFAULT_QUERY,
    query: params.get('query') ?? undefined,
    variables: params.get('variables') ?? undefined,
  }),
);
