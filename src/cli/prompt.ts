/**
 * Yes/no confirmation on an interactive terminal, a numbered choice (`choose`), and a secret read with echo off (`readSecret`).
 *
 * Contract: `confirm` writes the question to `output` (stderr by default,
 * so stdout stays data), reads one line from `input`, and resolves true only
 * for `y` or `yes` (any case). End of input, or anything else, is no.
 * `chooseEach` asks the same per name with `y/n/a/q` (the trust review).
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
  return askLine(`${question} [y/N] `, streams, (line) => line !== undefined && /^\s*y(es)?\s*$/i.test(line))
}

/** Write `prompt`, read one line from `input`: `answer(line)`, or `answer(undefined)` at end of input. */
function askLine<T>(prompt: string, streams: PromptStreams, answer: (line: string | undefined) => T): Promise<T> {
  const input = streams.input ?? process.stdin
  const output = streams.output ?? process.stderr
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false })
    let answered = false
    rl.once('line', (line) => {
      answered = true
      rl.close()
      resolve(answer(line))
    })
    rl.once('close', () => {
      if (!answered) resolve(answer(undefined))
    })
    output.write(prompt)
  })
}

/**
 * One answer per name on a terminal: `y` yes, `n` no, `a` yes to this and all the rest, `q` no to this and
 * the rest (answers given so far stand). Anything else asks again; end of input is `q`. Resolves the names
 * answered yes.
 */
export function chooseEach(
  names: readonly string[],
  question: (name: string) => string,
  streams: PromptStreams = {},
): Promise<Set<string>> {
  const input = streams.input ?? process.stdin
  const output = streams.output ?? process.stderr
  const yes = new Set<string>()
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false })
    let i = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      rl.close()
      resolve(yes)
    }
    const ask = () => {
      if (i >= names.length) return finish()
      output.write(`${question(names[i]!)} [y/n/a/q] `)
    }
    rl.on('line', (line) => {
      const a = line.trim().toLowerCase()
      if (a === 'y' || a === 'yes') yes.add(names[i++]!)
      else if (a === 'n' || a === 'no') i++
      else if (a === 'a' || a === 'all') {
        for (const n of names.slice(i)) yes.add(n)
        return finish()
      } else if (a === 'q' || a === 'quit') return finish()
      else output.write('answer y (yes), n (no), a (this and all the rest) or q (quit)\n')
      ask()
    })
    rl.once('close', finish)
    ask()
  })
}

export interface HiddenStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown }
  output: NodeJS.WritableStream
}

/**
 * A secret value: on a terminal, `question` on `output` and one line read
 * with echo off (raw mode: nothing typed is shown; backspace edits, Ctrl-C or
 * Ctrl-D with nothing typed resolves undefined); otherwise all of `input`
 * (a pipe) with one trailing line break removed. The value is never written
 * anywhere by this function.
 */
export function readSecret(question: string, streams: HiddenStreams): Promise<string | undefined> {
  const { input, output } = streams
  if (!input.isTTY || typeof input.setRawMode !== 'function') {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      input.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)))
      input.once('error', reject)
      input.once('end', () =>
        resolve(
          Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\r?\n$/, ''),
        ),
      )
    })
  }
  const tty = input as NodeJS.ReadStream
  return new Promise((resolve) => {
    let value = ''
    const done = (v: string | undefined) => {
      tty.off('data', onData)
      tty.setRawMode(false)
      tty.pause()
      output.write('\n')
      resolve(v)
    }
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return done(value)
        if (ch === '\u0003') return done(undefined)
        if (ch === '\u0004') return done(value === '' ? undefined : value)
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1)
        else if (ch >= ' ') value += ch
      }
    }
    output.write(question)
    tty.setRawMode(true)
    tty.setEncoding('utf8')
    tty.on('data', onData)
    tty.resume()
  })
}

/**
 * One of `choices` on an interactive terminal: the question and a numbered
 * list on `output`, one line read from `input`; the index chosen, or
 * undefined for end of input or anything that is not one of the numbers.
 */
export function choose(
  question: string,
  choices: readonly string[],
  streams: PromptStreams = {},
): Promise<number | undefined> {
  const menu = `${question}\n${choices.map((c, i) => `  ${i + 1}) ${c}`).join('\n')}\nchoose 1-${choices.length}: `
  return askLine(menu, streams, (line) => {
    const n = Number(line?.trim())
    return line !== undefined && Number.isInteger(n) && n >= 1 && n <= choices.length ? n - 1 : undefined
  })
}
