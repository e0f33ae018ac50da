/**
 * docs/guide/format.md stays true: its examples load as it says, its error
 * lines are what the loader prints, and the Chinese twin carries the same
 * code blocks.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { parse } from 'yaml'
import { formatDiagnostic } from '../../src/config/diagnostics.ts'
import { allDiagnostics, type FileFormat, parseConfigText } from '../../src/config/parse.ts'

const en = readFileSync(new URL('../../docs/guide/format.md', import.meta.url), 'utf8')
const zh = readFileSync(new URL('../../docs/guide/format.zh.md', import.meta.url), 'utf8')
/** The fenced code blocks of `md` whose info string is `lang` ('' for plain fences). */
function blocks(md: string, lang: string): string[] {
  const out: string[] = []
  let open: { lang: string; body: string[] } | undefined
  for (const line of md.split('\n')) {
    const fence = /^\s*```(\S*)\s*$/.exec(line)
    if (fence && !open) open = { lang: fence[1]!, body: [] }
    else if (fence && open) {
      if (open.lang === lang) out.push(`${open.body.join('\n')}\n`)
      open = undefined
    } else open?.body.push(line)
  }
  return out
}
const lines = (file: string, text: string, format: FileFormat) =>
  allDiagnostics(parseConfigText(text, { file, format })).map((d) => formatDiagnostic(d))

describe('format guide', () => {
  it('the complete example and the JSON dialect example load without a problem', () => {
    assert.deepEqual(lines('.dsh/mcp.yml', blocks(en, 'yaml')[0]!, 'friendly'), [])
    assert.deepEqual(lines('.mcp.json', blocks(en, 'json')[0]!, 'mcpServers'), [])
    assert.equal(parseConfigText(blocks(en, 'json')[0]!, { file: 'f', format: 'mcpServers' }).entries.length, 2)
  })
  it('the partial-entry example loads in the local file', () => {
    const local = blocks(en, 'yaml').find((b) => b.includes('enabled: false            #'))!
    const p = parseConfigText(local, { file: 'l', format: 'friendly', allowPartial: true })
    assert.deepEqual(
      p.entries.map((e) => [e.name, e.partial, e.entry !== undefined]),
      [
        ['github', true, true],
        ['docs', true, true],
      ],
    )
  })
  it('the error lines are what the loader prints for the example files', () => {
    const broken = blocks(en, 'yaml').find((b) => b.includes('comand:'))!
    const printed = [
      ...lines('.dsh/mcp.yml', broken, 'friendly'),
      ...lines('.mcp.json', '{ "mcpServers": { "a": { "command": "x" }, } }', 'mcpServers'),
    ]
    const shown = blocks(en, '')
      .find((b) => b.includes('.mcp.json:1:'))!
      .trim()
      .split('\n')
    assert.deepEqual(shown.slice(0, printed.length), printed)
  })
  it('the Chinese guide has the same code blocks as the English one', () => {
    // YAML comments are translated; the data and every other block are identical.
    assert.deepEqual(
      blocks(zh, 'yaml').map((b) => parse(b)),
      blocks(en, 'yaml').map((b) => parse(b)),
    )
    for (const lang of ['json', '']) assert.deepEqual(blocks(zh, lang), blocks(en, lang), `\`\`\`${lang} blocks`)
  })
})
