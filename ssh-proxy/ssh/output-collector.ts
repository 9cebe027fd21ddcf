// Collects a command's output up to a cap, keeping the head and the tail: the start of a listing
// and the end of a log are the parts worth reading, the middle of a flood is not.
export class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    const tailCap = Math.floor(this.maxBytes / 2);
    this.tail = Buffer.concat([this.tail, chunk]);
    if (this.tail.length > tailCap) this.tail = this.tail.subarray(this.tail.length - tailCap);
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  get bytes(): number {
    return this.total;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    if (!this.truncated) return head + this.tail.toString('utf8');
    const cut = this.total - this.headBytes - this.tail.length;
    return `${head}\n… [${cut} bytes cut] …\n${this.tail.toString('utf8')}`;
  }
}
