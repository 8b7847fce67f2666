// Booting an app and hashing passwords take more than Jest's default 5 s on a busy 2-core machine.
jest.setTimeout(30_000);
