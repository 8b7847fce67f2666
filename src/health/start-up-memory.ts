import { Session } from 'node:inspector/promises';

/**
 * Gives back the memory that starting took, once the service listens. Loading some 3,000 modules
 * and building the app keeps nearly everything they allocate, so V8 grows its young generation
 * to the largest size it allows (about 60 MB on a 64-bit machine); an idle process keeps it,
 * since V8 only shrinks it in a collection that runs while little is allocated, and its memory
 * reducer waits up to 100 s for one. One memory-reducing collection here (V8's low-memory
 * collection, two full collections, about 0.1 s once) shrinks it at once: the service then
 * holds some 65 MB less while it waits for its first requests, and the young generation grows
 * back within the first second of load.
 *
 * Node offers no other call for this collection outside `--expose-gc`: the inspector's
 * `HeapProfiler.collectGarbage` is it, through an in-process session that opens no port. Where
 * the inspector is missing (Node built without it) or denied (`--permission`), nothing is done.
 *
 * @returns whether the collection ran.
 */
export async function releaseStartUpMemory(): Promise<boolean> {
  let session: Session;
  try {
    session = new Session();
    session.connect();
  } catch {
    return false;
  }
  try {
    await session.post('HeapProfiler.collectGarbage');
    return true;
  } catch {
    return false;
  } finally {
    // Disconnecting inside the reply's own dispatch can hang the inspector: leave it first.
    setImmediate(() => session.disconnect());
  }
}
