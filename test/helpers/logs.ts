/** Log lines an app writes, captured (TestApp.start({ logs })) and parsed. */
export class CapturedLogs {
  readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
  }

  get text(): string {
    return this.raw.join('');
  }

  get lines(): Record<string, any>[] {
    return this.raw.map((line) => JSON.parse(line));
  }

  /** The lines that have every field of `fields`, waiting a little for lines logged late. */
  async find(fields: Record<string, unknown>, timeoutMs = 2000): Promise<Record<string, any>[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.filter((line) =>
        Object.entries(fields).every(([key, value]) => line[key] === value),
      );
      if (found.length > 0 || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
