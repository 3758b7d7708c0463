// Watermark texts kept in memory, with the provider read rule of reference §5.2: nothing stored, or
// blank text, reads as null; anything else is returned exactly as written.

export class InMemoryWatermarkStore {
  private readonly texts = new Map<string, string>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [dataflowId, text] of Object.entries(initial)) this.texts.set(dataflowId, text);
  }

  read(dataflowId: string): string | null {
    const text = this.texts.get(dataflowId);
    return text === undefined || text.trim() === '' ? null : text;
  }

  write(dataflowId: string, text: string): void {
    this.texts.set(dataflowId, text);
  }

  clear(): void {
    this.texts.clear();
  }
}
