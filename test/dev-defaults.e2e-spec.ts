import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

import { buildIfNeeded, SpawnedService } from './helpers/spawned-service';

const README_PASSWORD = 'demo-password';

/** This machine's addresses other than loopback (IPv6 link-local ones need a scope: left out). */
function otherAddresses(family: 'IPv4' | 'IPv6' | 'any' = 'any'): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((info) => info && !info.internal && !info.address.startsWith('fe80:'))
    .filter((info) => family === 'any' || info!.family === family)
    .map((info) => info!.address);
}

/** Whether a TCP connection to `address`:`port` is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: address, port, timeout: 5000 });
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(false));
    socket.once('close', () => socket.destroy());
  });
}

/** Whether the demo user logs in with `password`. */
async function logsIn(port: number, password: string): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        'mutation ($password: String!) { logIn(input: { email: "ada@example.com", password: $password }) { token } }',
      variables: { password },
    }),
  });
  const body = (await response.json()) as { data?: { logIn?: { token?: string } } | null };
  return typeof body.data?.logIn?.token === 'string';
}

/**
 * In development the service keeps to this machine unless HOST says otherwise, and the demo
 * account has the README's password only while it does.
 */
describe('Safe defaults in development (e2e)', () => {
  let service: SpawnedService | undefined;

  beforeAll(buildIfNeeded, 240_000);
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it("should listen on 127.0.0.1 only, and seed the demo with the README's password", async () => {
    service = new SpawnedService({ NODE_ENV: 'development', PORT: '0', LOG_FORMAT: 'json' });
    const port = await service.port();
    expect(service.log).toContain(`Server listening at http://127.0.0.1:${port}`);
    expect(await accepts('127.0.0.1', port)).toBe(true);
    for (const address of otherAddresses()) {
      expect({ address, accepted: await accepts(address, port) }).toEqual({
        address,
        accepted: false,
      });
    }
    expect(await logsIn(port, README_PASSWORD)).toBe(true);
  });

  it("should not take the README's password when HOST lets others in, but a printed one", async () => {
    service = new SpawnedService({
      NODE_ENV: 'development',
      HOST: '0.0.0.0',
      PORT: '0',
      LOG_FORMAT: 'json',
    });
    const port = await service.port();
    for (const address of otherAddresses('IPv4')) {
      expect({ address, accepted: await accepts(address, port) }).toEqual({
        address,
        accepted: true,
      });
    }
    expect(await logsIn(port, README_PASSWORD)).toBe(false);
    const printed = /Log in as ada@example\.com \/ (\S+) \(made for HOST 0\.0\.0\.0/.exec(
      service.log,
    )?.[1];
    expect(printed).toEqual(expect.any(String));
    expect(await logsIn(port, printed!)).toBe(true);
  });
});
