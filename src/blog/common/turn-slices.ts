/**
 * Work of one operation cut into slices of `perTurn` pieces a turn of the event loop: the first
 * `perTurn` pieces of a turn run at once, the rest wait for later turns, `perTurn` a turn, in
 * order. A page of results that each take some CPU (a search's snippets) then never holds the
 * event loop for long: other clients' requests and health probes are served between slices.
 */
export class TurnSlices {
  private left: number;
  private readonly waiting: Array<() => void> = [];
  private turnScheduled = false;

  constructor(private readonly perTurn: number) {
    this.left = perTurn;
  }

  /** Runs `piece` now if this turn has room, otherwise in a later turn; its result either way. */
  run<T>(piece: () => T): T | Promise<T> {
    this.scheduleTurn();
    if (this.left > 0 && this.waiting.length === 0) {
      this.left -= 1;
      return piece();
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        try {
          resolve(piece());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** At the next turn: room for `perTurn` more, given first to the pieces that wait. */
  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.left = this.perTurn;
      while (this.left > 0 && this.waiting.length > 0) {
        this.left -= 1;
        this.waiting.shift()!();
      }
      if (this.waiting.length > 0) this.scheduleTurn();
    });
  }
}
