import { registerAs } from '@nestjs/config';

import {
  InvalidEnvironmentError,
  readAddressRanges,
  readBoolean,
  readEnum,
  readInteger,
  readOptionalString,
  readString,
} from './env';
import { isHostSyntax } from './host';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/**
 * The proxies whose `X-Forwarded-For` is believed: a number of hops (0: none), or the proxies'
 * addresses and CIDR ranges, in proxy-addr's syntax.
 */
export type TrustProxy = number | readonly string[];

export interface AppConfig {
  nodeEnv: NodeEnv;
  port: number;
  /** The address to listen on: every interface in production, 127.0.0.1 elsewhere by default. */
  host: string;
  /** Folder for the embedded database and the generated development secret. */
  dataDir: string;
  /** Seed a small demo on an empty database. */
  seedDemo: boolean;
  /** Proxies in front of the service whose X-Forwarded-For to trust (Express `trust proxy`). */
  trustProxy: TrustProxy;
}

export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const nodeEnv = readEnum(env, 'NODE_ENV', NODE_ENVS, 'development');
  return {
    nodeEnv,
    port: readInteger(env, 'PORT', 3000, { min: 0, max: 65535 }),
    host: readHost(env, nodeEnv),
    dataDir: readString(env, 'DATA_DIR', './data'),
    seedDemo: readBoolean(env, 'SEED_DEMO', nodeEnv === 'development'),
    trustProxy: readTrustProxy(env),
  };
}

/** A hop count as before, or the proxies by address: only their X-Forwarded-For is believed. */
function readTrustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = readOptionalString(env, 'TRUST_PROXY');
  if (raw === undefined || /^\d+$/.test(raw)) {
    return readInteger(env, 'TRUST_PROXY', 0, { min: 0, max: 10 });
  }
  const proxies = readAddressRanges(
    env,
    'TRUST_PROXY',
    'a number of proxies (0-10), or their IP addresses and CIDR ranges, such as 10.0.0.0/8,127.0.0.1 or loopback',
  );
  return proxies.length > 0 ? proxies : 0;
}

function readHost(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): string {
  const host = readOptionalString(env, 'HOST');
  if (host === undefined) return nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';
  if (!isHostSyntax(host)) {
    throw new InvalidEnvironmentError(
      'HOST',
      `expected an IP address or a host name (no scheme or port), got "${host}"`,
    );
  }
  return host;
}

export const appConfig = registerAs('app', () => loadAppConfig());
