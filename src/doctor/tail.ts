/**
 * A bounded tail of a stream's text: keeps at most the last `maxBytes` of
 * input and yields its last `maxLines` non-empty lines, each cut to
 * `maxLineLength` characters. Memory stays bounded however much a server
 * writes to stderr.
 *
 * Secrets (`secrets`): every line is redacted BEFORE it is cut, and the
 * window is redacted whole before it is split (a value spanning lines goes
 * whole). When the window starts inside the stream (older text dropped) its
 * partial first line is dropped; a window that is one long line has the
 * fragment of a secret at its cut start masked (`redactEdges`). So no
 * display cut leaves a piece of a known secret behind.
 *
 * @module
 */
import { redact, redactCut, redactEdges } from '../config/redact.ts'

export class TextTail {
  private text = ''
  /** Text was dropped from the front of `text`. */
  private cut = false
  private readonly maxLines: number
  private readonly maxBytes: number
  private readonly maxLineLength: number
  private readonly secrets: readonly string[]

  constructor(
    opts: { maxLines?: number; maxBytes?: number; maxLineLength?: number; secrets?: readonly string[] } = {},
  ) {
    this.maxLines = opts.maxLines ?? 20
    this.maxBytes = opts.maxBytes ?? 16 * 1024
    this.maxLineLength = opts.maxLineLength ?? 300
    this.secrets = opts.secrets ?? []
  }

  push(chunk: Buffer | string): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8')
    if (this.text.length > this.maxBytes * 2) {
      this.text = this.text.slice(-this.maxBytes)
      this.cut = true
    }
  }

  lines(): string[] {
    let window = this.text.slice(-this.maxBytes)
    let cut = this.cut || window.length < this.text.length
    if (cut) {
      const nl = window.search(/\r?\n/)
      if (nl >= 0) {
        window = window.slice(nl + 1)
        cut = false
      }
    }
    window = redact(window, this.secrets)
    if (cut) window = redactEdges(window, this.secrets, { start: true })
    const all = window
      .split(/\r?\n/)
      // Strip terminal escapes and other control characters a server may write.
      .map((l) =>
        l
          .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
          .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
          .trimEnd(),
      )
      .filter((l) => l.trim() !== '')
    return all.slice(-this.maxLines).map((l) => redactCut(l, this.secrets, this.maxLineLength))
  }
}
