/**
 * A bounded tail of a stream's text: keeps at most the last `maxBytes` of
 * input and yields its last `maxLines` non-empty lines, each cut to
 * `maxLineLength` characters. Memory stays bounded however much a server
 * writes to stderr.
 *
 * @module
 */
export class TextTail {
  private text = ''
  private readonly maxLines: number
  private readonly maxBytes: number
  private readonly maxLineLength: number

  constructor(opts: { maxLines?: number; maxBytes?: number; maxLineLength?: number } = {}) {
    this.maxLines = opts.maxLines ?? 20
    this.maxBytes = opts.maxBytes ?? 16 * 1024
    this.maxLineLength = opts.maxLineLength ?? 300
  }

  push(chunk: Buffer | string): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8')
    if (this.text.length > this.maxBytes * 2) this.text = this.text.slice(-this.maxBytes)
  }

  lines(): string[] {
    const all = this.text
      .slice(-this.maxBytes)
      .split(/\r?\n/)
      // Strip terminal escapes and other control characters a server may write.
      .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trimEnd())
      .filter((l) => l.trim() !== '')
    return all.slice(-this.maxLines).map((l) => (l.length > this.maxLineLength ? `${l.slice(0, this.maxLineLength - 1)}…` : l))
  }
}
