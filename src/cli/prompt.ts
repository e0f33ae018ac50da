/**
 * Yes/no confirmation on an interactive terminal.
 *
 * Contract: `confirm` writes the question to `output` (stderr by default,
 * so stdout stays data), reads one line from `input`, and resolves true only
 * for `y` or `yes` (any case). End of input, or anything else, is no.
 * Callers decide beforehand whether a terminal is there at all
 * (`CliContext.interactive`); this never guesses.
 *
 * @module
 */
import { createInterface } from 'node:readline'

export interface PromptStreams {
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
}

export function confirm(question: string, streams: PromptStreams = {}): Promise<boolean> {
  const input = streams.input ?? process.stdin
  const output = streams.output ?? process.stderr
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false })
    let answered = false
    rl.once('line', (line) => {
      answered = true
      rl.close()
      resolve(/^\s*y(es)?\s*$/i.test(line))
    })
    rl.once('close', () => {
      if (!answered) resolve(false)
    })
    output.write(`${question} [y/N] `)
  })
}
