// Proxies (spec 2 C.4/C.7, Vector's `ProxyConfig`), for every HTTP client: the http sink and its healthcheck,
// the eventdb_metrics source and the cloud secret backend. The settings in force are the component's `proxy`
// over the global one over the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY; each lowercase variant wins
// over its uppercase one), merged field by field as Vector does. An http:// target goes through `http`, an
// https:// one through `https` (a CONNECT tunnel, the TLS session to the target inside it), unless the target
// matches `no_proxy`.

import { BlockList } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Dispatcher } from 'undici';
import { ipBlock, type ProxyOptions } from '../../config/common.js';

/** The proxy variables of `env`, as settings; an empty variable is unset (as curl reads them). Throws,
 * naming the variable, for a proxy that is not an http:// or https:// URI. */
export function environmentProxy(env: NodeJS.ProcessEnv): ProxyOptions {
  const variable = (name: string) => [name.toLowerCase(), name].find((key) => env[key]);
  const uri = (name: string) => {
    const key = variable(name);
    if (key === undefined) return undefined;
    const value = env[key]!;
    // `host:port` without a scheme is an http:// proxy, as curl and most tools take it.
    const proxy = value.includes('://') ? value : `http://${value}`;
    if (!URL.canParse(proxy) || !['http:', 'https:'].includes(new URL(proxy).protocol))
      throw new Error(`the environment variable ${key}: expected an http:// or https:// proxy URI, got "${value}"`);
    return proxy;
  };
  const noProxyKey = variable('NO_PROXY');
  const noProxy = noProxyKey === undefined ? '' : env[noProxyKey]!;
  return {
    enabled: true,
    http: uri('HTTP_PROXY'),
    https: uri('HTTPS_PROXY'),
    no_proxy: noProxy
      .split(',')
      .map((pattern) => pattern.trim())
      .filter((pattern) => pattern !== ''),
  };
}

/** `over` on top of `base` (Vector's `ProxyConfig::merge`): either one disables; a proxy or a non-empty
 * `no_proxy` of `over` replaces `base`'s. */
function merge(base: ProxyOptions, over: ProxyOptions): ProxyOptions {
  return {
    enabled: base.enabled && over.enabled,
    http: over.http ?? base.http,
    https: over.https ?? base.https,
    no_proxy: over.no_proxy.length > 0 ? over.no_proxy : base.no_proxy,
  };
}

/** The settings in force for a component: its own `proxy` over the global one over the environment's. */
export function effectiveProxy(
  global: ProxyOptions,
  component: ProxyOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProxyOptions {
  const configured = component === undefined ? global : merge(global, component);
  return merge(environmentProxy(env), configured);
}

/** `no_proxy` patterns: `*`; an IP address or CIDR block; `.domain` (the domain and its subdomains); a host
 * name, or `host:port` for that port only. */
class NoProxy {
  private readonly all: boolean;
  private readonly addresses = new BlockList();
  private readonly names = new Set<string>();
  private readonly domains: string[] = [];

  constructor(patterns: readonly string[]) {
    this.all = patterns.includes('*');
    for (const raw of patterns) {
      const pattern = raw.toLowerCase().replace(/^\[(.*)\]$/, '$1');
      const block = ipBlock(pattern);
      if (block?.prefix !== undefined) this.addresses.addSubnet(block.address, block.prefix, block.family);
      else if (block) this.addresses.addAddress(block.address, block.family);
      else if (pattern.startsWith('.')) this.domains.push(pattern.slice(1));
      else this.names.add(pattern);
    }
  }

  /** Whether `target` is reached directly. */
  matches(target: URL): boolean {
    if (this.all) return true;
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const address = ipBlock(host);
    if (address && this.addresses.check(address.address, address.family)) return true;
    const port = target.port || (target.protocol === 'https:' ? '443' : '80');
    return (
      this.names.has(host) ||
      this.names.has(`${target.hostname}:${port}`) ||
      this.domains.some((domain) => host === domain || host.endsWith(`.${domain}`))
    );
  }
}

/** Where requests to a target go: the proxy URI for it, or undefined to connect directly. */
export class ProxyRoutes {
  private readonly noProxy: NoProxy;

  constructor(private readonly settings: ProxyOptions) {
    this.noProxy = new NoProxy(settings.no_proxy);
  }

  proxyFor(target: URL): string | undefined {
    if (!this.settings.enabled) return undefined;
    const proxy = target.protocol === 'https:' ? this.settings.https : this.settings.http;
    return proxy === undefined || this.noProxy.matches(target) ? undefined : proxy;
  }
}

type Undici = typeof import('undici');

/** How a client connects: connections per target, HTTP/2, and the TLS options for the targets (not for the
 * proxy). */
interface ClientOptions {
  connections?: number;
  allowH2?: boolean;
  tls?: ConnectionOptions;
}

/**
 * The undici dispatchers of one client, made when first needed: a direct one, and one per proxy in use. A
 * proxy is sent http:// requests as they are (absolute URIs, as Vector's proxy connector does) and tunnels
 * https:// ones with CONNECT.
 */
export class ProxiedDispatchers {
  private readonly routes: ProxyRoutes;
  private readonly made = new Map<string, Dispatcher>();

  constructor(
    private readonly undici: Undici,
    settings: ProxyOptions,
    private readonly options: ClientOptions = {},
  ) {
    this.routes = new ProxyRoutes(settings);
  }

  /** The dispatcher for requests to `target`. */
  for(target: string | URL): Dispatcher {
    const proxy = this.routes.proxyFor(new URL(target));
    const key = proxy ?? '';
    let dispatcher = this.made.get(key);
    if (dispatcher === undefined) {
      const { tls, ...pool } = this.options;
      dispatcher =
        proxy === undefined
          ? new this.undici.Agent({ ...pool, connect: tls })
          : new this.undici.ProxyAgent({
              ...pool,
              uri: proxy,
              proxyTunnel: false,
              requestTls: { ...tls, allowH2: pool.allowH2 },
            });
      this.made.set(key, dispatcher);
    }
    return dispatcher;
  }

  async close(): Promise<void> {
    await Promise.all([...this.made.values()].map((dispatcher) => dispatcher.close()));
  }
}
