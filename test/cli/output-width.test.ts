/**
 * `list`-style tables fit the terminal the way gh's do: on a TTY every line
 * stays within `columns` (else `COLUMNS`, else 80), the widest columns
 * narrowed and cut with `…`; piped, every cell is kept whole. Also through
 * the CLI on a terminal of 70 columns (the bin on a real pseudo-terminal:
 * test/e2e/cli-binary.test.ts).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { createOutput, fitWidths } from '../../src/cli/output.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(cleanupAll)

function capture(
  isTTY: boolean,
  columns?: number,
  env: NodeJS.ProcessEnv = {},
): { out: ReturnType<typeof createOutput>; lines: () => string[] } {
  let text = ''
  const stdout = Object.assign(
    {
      write(s: string) {
        text += s
        return true
      },
    },
    { isTTY, ...(columns ? { columns } : {}) },
  ) as unknown as NodeJS.WritableStream & { isTTY: boolean }
  return { out: createOutput({ stdout, color: false, env }), lines: () => text.trimEnd().split('\n') }
}

const HEADER = ['NAME', 'SCOPE', 'STATE', 'TRANSPORT', 'TARGET', 'EFFECTIVE', 'ISSUES']
const ROWS = [
  [
    'github',
    'project',
    'untrusted',
    'stdio',
    `npx -y @modelcontextprotocol/server-github --with ${'x'.repeat(40)}`,
    'github',
    `.dsh/mcp.yml:3:5: warning: ${'a long issue text '.repeat(6)}`,
  ],
  ['a', 'user', 'active', 'http', 'https://mcp.example.test/mcp', 'a', ''],
]

for (const [label, columns, env] of [
  ['columns 60', 60, {}],
  ['columns 100', 100, {}],
  ['COLUMNS=72 when the stream has no size', undefined, { COLUMNS: '72' }],
  ['80 when nothing says', undefined, {}],
] as const) {
  test(`TTY, ${label}: every line fits, cut cells end in …`, () => {
    const c = capture(true, columns, env)
    c.out.table(ROWS, HEADER)
    const limit = columns ?? (env.COLUMNS ? Number(env.COLUMNS) : 80)
    for (const line of c.lines()) assert.ok(line.length <= limit, `${line.length} > ${limit}: ${line}`)
    assert.ok(c.lines().some((l) => l.includes('…')))
    assert.match(c.lines()[0]!, /^NAME\s+SCOPE\s+STATE/)
  })
}

test('piped: nothing is cut', () => {
  const c = capture(false, 60)
  c.out.table(ROWS, HEADER)
  assert.ok(c.lines()[1]!.includes(ROWS[0]![6]!.trimEnd()))
  assert.ok(!c.lines().some((l) => l.includes('…')))
})

test('fitWidths narrows the widest first and stops at the floors', () => {
  assert.deepEqual(fitWidths([4, 30, 50], [4, 6, 6], 40), [4, 16, 16])
  assert.deepEqual(fitWidths([10, 10], [8, 8], 5), [8, 8])
})

test('the CLI on a 70-column terminal', async () => {
  const project = makeProject({
    '.dsh/mcp.yml': `servers:\n  github:\n    command: npx\n    args: [-y, "@modelcontextprotocol/server-github", "${'y'.repeat(60)}"]\n    bogus: 1\n`,
  })
  const r = await runCli(['list', '--no-color'], {
    cwd: project.path,
    dshHome: makeTempDir().path,
    tty: { columns: 70 },
  })
  const lines = r.stdout.trimEnd().split('\n')
  assert.match(lines[0]!, /NAME/)
  for (const line of lines) assert.ok(line.length <= 70, `${line.length} > 70: ${line}`)
})
