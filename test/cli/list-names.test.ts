/**
 * `dsh-mcp list` never cuts a server name, at any terminal width: the other
 * columns are narrowed (and cut with `…`) first. At 80 columns every line
 * still fits; at 40 the names stay whole even when the line cannot fit.
 * `everything` and `everything-http` stay told apart.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(cleanupAll)

const LONG = 'a-long-server-name-of-24'
const NAMES = ['everything', 'everything-http', LONG]

function project() {
  return makeProject({
    '.dsh/mcp.yml': [
      'servers:',
      '  everything:',
      '    command: npx',
      `    args: [-y, "@modelcontextprotocol/server-everything", "${'x'.repeat(50)}"]`,
      '  everything-http:',
      `    url: "https://mcp.example.test/${'p'.repeat(60)}"`,
      `  ${LONG}:`,
      '    command: node',
      `    args: ["${'z'.repeat(70)}.js"]`,
      '',
    ].join('\n'),
  })
}

for (const columns of [80, 40]) {
  test(`${columns} columns: every server name whole, other columns cut first`, async () => {
    const p = project()
    // The gate off, so each row has an effective name (another name column).
    const r = await runCli(['list', '--no-color'], {
      cwd: p.path,
      dshHome: makeTempDir().path,
      tty: { columns },
      env: { DSH_MCP_TRUST_ALL: '1' },
    })
    assert.equal(r.code, 0, r.stderr)
    const lines = r.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^NAME\s/)
    for (const name of NAMES) {
      const line = lines.find((l) => l.startsWith(`${name} `))
      assert.ok(line, `a row starting with the whole name ${name}:\n${r.stdout}`)
      // The effective name column holds the name whole too.
      assert.ok(line.split(/\s+/).filter((c) => c === name).length >= 2, `the effective name is whole: ${line}`)
    }
    assert.ok(r.stdout.includes('…'), 'other columns are cut')
    if (columns === 80) for (const line of lines) assert.ok(line.length <= 80, `${line.length} > 80: ${line}`)
  })
}
