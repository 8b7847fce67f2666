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
import { NODE_ENVS, SETTINGS } from './settings.schema';

export { NODE_ENVS };
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
  const nodeEnv = readEnum(env, SETTINGS.NODE_ENV);
  return {
    nodeEnv,
    port: readInteger(env, SETTINGS.PORT),
    host: readHost(env, nodeEnv),
    dataDir: readString(env, SETTINGS.DATA_DIR),
    seedDemo: readBoolean(env, SETTINGS.SEED_DEMO, nodeEnv === 'development'),
    trustProxy: readTrustProxy(env),
  };
}

/** A hop count as before, or the proxies by address: only their X-Forwarded-For is believed. */
function readTrustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = readOptionalString(env, SETTINGS.TRUST_PROXY);
  if (raw === undefined || /^\d+$/.test(raw)) return readInteger(env, SETTINGS.TRUST_PROXY);
  const { min, max } = SETTINGS.TRUST_PROXY;
  const proxies = readAddressRanges(
    env,
    SETTINGS.TRUST_PROXY,
    `a number of proxies (${min}-${max}), or their IP addresses and CIDR ranges, such as 10.0.0.0/8,127.0.0.1 or loopback`,
  );
  return proxies.length > 0 ? proxies : 0;
}

function readHost(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): string {
  const host = readOptionalString(env, SETTINGS.HOST);
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
