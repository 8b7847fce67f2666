import { Logger } from '@nestjs/common';
import { WebSocket } from 'ws';

import { ConnectionSession, WS_UNAUTHORIZED } from './connection-session';
import {
  AccessTokenService,
  Authentication,
  TOKEN_REFUSALS,
  tokenRefusal,
} from '../auth/access-token.service';
import { RequestScope } from '../common/request-scope';
import { Role } from '../users/roles';
import { User } from '../users/user.entity';

describe('ConnectionSession', () => {
  const ada = { id: 'ada', tokenVersion: 0 } as User;
  let socket: { readyState: number; close: jest.Mock };
  let tokens: { authenticate: jest.Mock; recheck: jest.Mock };
  let logger: { error: jest.Mock };
  let session: ConnectionSession;

  const signedIn = (expiresAt = Date.now() + 60_000): Authentication => ({
    user: ada,
    expiresAt,
    tokenVersion: 0,
  });

  beforeEach(() => {
    socket = { readyState: WebSocket.OPEN, close: jest.fn() };
    tokens = { authenticate: jest.fn(), recheck: jest.fn() };
    logger = { error: jest.fn() };
    session = new ConnectionSession(
      socket as unknown as WebSocket,
      tokens as unknown as AccessTokenService,
      logger as unknown as Logger,
    );
  });
  afterEach(() => {
    session.close();
    jest.useRealTimers();
  });

  it('should check the authorization of connection_init, in either spelling', async () => {
    tokens.authenticate.mockResolvedValue(signedIn());
    expect(await session.open({ Authorization: 'Bearer t' })).toBe(true);
    expect(tokens.authenticate).toHaveBeenCalledWith('Bearer t');
    expect(session.userId).toBe('ada');
  });

  it('should close a refused token with 4401 and the message HTTP answers', async () => {
    tokens.authenticate.mockRejectedValue(tokenRefusal('revoked'));
    expect(await session.open({ authorization: 'Bearer t' })).toBe(false);
    expect(socket.close).toHaveBeenCalledWith(
      WS_UNAUTHORIZED,
      `Unauthorized: ${TOKEN_REFUSALS.revoked}`,
    );
  });

  it('should close with 4500, not 4401, when the check cannot decide', async () => {
    tokens.authenticate.mockRejectedValue(new Error('database is down'));
    expect(await session.open({ authorization: 'Bearer t' })).toBe(false);
    expect(socket.close).toHaveBeenCalledWith(4500, 'Internal server error');
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('should close the socket with 4401 when the token expires', async () => {
    jest.useFakeTimers();
    tokens.authenticate.mockResolvedValue(signedIn(Date.now() + 5_000));
    await session.open({ authorization: 'Bearer t' });
    jest.advanceTimersByTime(4_999);
    expect(socket.close).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(socket.close).toHaveBeenCalledWith(
      WS_UNAUTHORIZED,
      `Unauthorized: ${TOKEN_REFUSALS.expired}`,
    );
  });

  it("should re-read the viewer of an operation and take the user's changes", async () => {
    tokens.authenticate.mockResolvedValue(signedIn());
    await session.open({ authorization: 'Bearer t' });
    const admin = { ...ada, role: Role.ADMIN } as User;
    tokens.recheck.mockResolvedValue({ ...signedIn(), user: admin });
    const context = session.operationContext(new RequestScope());
    expect(await context.refreshViewer?.()).toBe(true);
    expect(context.viewer).toBe(admin);
  });

  it('should end the connection when the re-read refuses the token', async () => {
    tokens.authenticate.mockResolvedValue(signedIn());
    await session.open({ authorization: 'Bearer t' });
    tokens.recheck.mockRejectedValue(tokenRefusal('userGone'));
    const context = session.operationContext(new RequestScope());
    expect(await context.refreshViewer?.()).toBe(false);
    expect(socket.close).toHaveBeenCalledWith(
      WS_UNAUTHORIZED,
      `Unauthorized: ${TOKEN_REFUSALS.userGone}`,
    );
  });

  it('should refuse the operation, logged, when the re-read fails', async () => {
    tokens.authenticate.mockResolvedValue(signedIn());
    await session.open({ authorization: 'Bearer t' });
    tokens.recheck.mockRejectedValue(new Error('database is down'));
    const context = session.operationContext(new RequestScope());
    expect(await context.refreshViewer?.()).toBe(false);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('should keep an anonymous connection anonymous, with no one to re-read', async () => {
    tokens.authenticate.mockResolvedValue(null);
    await session.open({});
    const context = session.operationContext(new RequestScope());
    expect(await context.refreshViewer?.()).toBe(true);
    expect(context.viewer).toBeNull();
    expect(tokens.recheck).not.toHaveBeenCalled();
  });
});
