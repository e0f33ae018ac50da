// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `remove`, `enable`, `disable` end to end: which file each one edits, what
 * it says, and that every other file keeps every byte. `.mcp.json` is never
 * written; a committed server is switched in `.dsh/mcp.local.yml`.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { parse } from 'yaml'
import { cleanupAll } from '../support/tmp.ts'

import { changed, makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

const YML =
  '# team file\nservers:\n  gh:\n    command: node   # the gh server\n    args: [gh.js]\n  docs:\n    url: https://docs.test/mcp\n'
const JSON_FILE =
  '{\n    "mcpServers": {\n        "10": { "command": "ten" },\n        "j": { "command": "jay" }\n    }\n}\n'
const LEGACY = '{ "mcpServers": { "claude": { "command": "c" }, "gh": { "command": "legacy-gh" } } }\n'

function localServers(read: (rel: string) => string): Record<string, Record<string, unknown>> {
  return (parse(read('.dsh/mcp.local.yml')) as { servers: Record<string, Record<string, unknown>> }).servers
}

describe('remove', () => {
  test('without -s: the strongest file that defines the name, then the next; says who takes over', async () => {
    const env = makeEnv({
      '.dsh/mcp.yml': YML,
      '.mcp.json': LEGACY,
      '.dsh/mcp.local.yml': 'servers:\n  gh:\n    command: mine\n',
    })
    const legacy = env.read('.mcp.json')
    let r = await env.run(['remove', 'gh'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Removed "gh" from .dsh/mcp.local.yml; now using .dsh/mcp.yml\n')
    assert.equal(env.read('.dsh/mcp.yml'), YML)
    r = await env.run(['remove', 'gh'])
    assert.equal(r.stderr, 'Removed "gh" from .dsh/mcp.yml; now using .mcp.json\n')
    assert.equal(env.read('.dsh/mcp.yml'), '# team file\nservers:\n  docs:\n    url: https://docs.test/mcp\n')
    const snap = env.snapshot()
    r = await env.run(['remove', 'gh'])
    assert.equal(r.code, 1)
    assert.match(
      r.stderr,
      /^dsh-mcp: "gh" is defined in \.mcp\.json, Claude Code's file, which dsh-mcp never writes; .*dsh-mcp disable gh/,
    )
    assert.deepEqual(changed(snap, env.snapshot()), [])
    assert.equal(env.read('.mcp.json'), legacy)
  })

  test('a partial local override is removed first; removing its base leaves a note about the orphan', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': YML, '.dsh/mcp.local.yml': 'servers:\n  gh:\n    enabled: false\n' })
    let r = await env.run(['remove', 'docs'])
    assert.equal(r.stderr, 'Removed "docs" from .dsh/mcp.yml\n')
    r = await env.run(['remove', 'gh', '-s', 'project'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stderr,
      'Removed "gh" from .dsh/mcp.yml\nnote: .dsh/mcp.local.yml still holds an override for "gh" that now overrides nothing; "dsh-mcp remove gh -s local" removes it\n',
    )
    assert.equal(env.read('.dsh/mcp.yml'), '# team file\nservers: {}\n')
  })

  test('-s project reaches .dsh/mcp.json and keeps its indentation and key order', async () => {
    const env = makeEnv({ '.dsh/mcp.json': JSON_FILE, '.dsh/mcp.yml': YML })
    const r = await env.run(['remove', '-s', 'project', '10'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Removed "10" from .dsh/mcp.json\n')
    assert.equal(env.read('.dsh/mcp.json'), '{\n    "mcpServers": {\n        "j": { "command": "jay" }\n    }\n}\n')
    assert.equal(env.read('.dsh/mcp.yml'), YML)
  })

  test('unknown names, wrong scopes and broken stronger files fail with one line and change nothing', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': YML })
    const snap = env.snapshot()
    let r = await env.run(['remove', 'gj'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: no server "gj" in this project or the user file; did you mean "gh"?\n')
    r = await env.run(['remove', '-s', 'user', 'gh'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^dsh-mcp: "gh" is not in .*mcp\.yml \(it is defined in \.dsh\/mcp\.yml\)\n$/)
    assert.deepEqual(changed(snap, env.snapshot()), [])

    const broken = makeEnv({ '.dsh/mcp.yml': YML, '.dsh/mcp.local.yml': 'servers:\n  gh: [unclosed\n' })
    const snap2 = broken.snapshot()
    r = await broken.run(['remove', 'gh'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^dsh-mcp: \.dsh\/mcp\.local\.yml:\d+:\d+: error: .*fix this file first/)
    assert.deepEqual(changed(snap2, broken.snapshot()), [])
  })
})

describe('disable / enable', () => {
  test('a committed server is disabled in .dsh/mcp.local.yml (created with .gitignore) and enabled back', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': YML })
    let r = await env.run(['disable', 'gh'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Disabled "gh" in .dsh/mcp.local.yml; .dsh/mcp.yml is unchanged\n')
    assert.equal(env.read('.dsh/mcp.yml'), YML)
    assert.deepEqual(localServers(env.read), { gh: { enabled: false } })
    assert.equal(env.read('.dsh/.gitignore'), 'mcp.local.yml\n')
    r = await env.run(['disable', 'gh'])
    assert.equal(r.stderr, '"gh" is already disabled; nothing changed\n')
    r = await env.run(['enable', 'gh'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Enabled "gh" in .dsh/mcp.local.yml\n')
    assert.deepEqual(localServers(env.read), {})
    assert.equal(env.read('.dsh/mcp.yml'), YML)
  })

  test('an existing local override keeps its other keys; a legacy server is switched locally too', async () => {
    const env = makeEnv({
      '.dsh/mcp.yml': YML,
      '.mcp.json': LEGACY,
      '.dsh/mcp.local.yml': '# mine\nservers:\n  gh:\n    env: {TOKEN: "${TOKEN}"}   # keep\n',
    })
    const legacy = env.read('.mcp.json')
    await env.run(['disable', 'gh'])
    assert.equal(
      env.read('.dsh/mcp.local.yml'),
      '# mine\nservers:\n  gh:\n    env: {TOKEN: "${TOKEN}"}   # keep\n    enabled: false\n',
    )
    await env.run(['enable', 'gh'])
    assert.equal(env.read('.dsh/mcp.local.yml'), '# mine\nservers:\n  gh:\n    env: {TOKEN: "${TOKEN}"}   # keep\n')
    const r = await env.run(['disable', 'claude'])
    assert.equal(r.stderr, 'Disabled "claude" in .dsh/mcp.local.yml; .mcp.json is unchanged\n')
    assert.equal(localServers(env.read).claude?.enabled, false)
    assert.equal(env.read('.mcp.json'), legacy)
  })

  test('a server the committed file disables is enabled for me with a local "enabled: true"', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': 'servers:\n  off:\n    command: node\n    enabled: false\n' })
    const r = await env.run(['enable', 'off'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(localServers(env.read), { off: { enabled: true } })
    assert.equal(env.read('.dsh/mcp.yml'), 'servers:\n  off:\n    command: node\n    enabled: false\n')
    await env.run(['disable', 'off'])
    assert.deepEqual(localServers(env.read), { off: { enabled: false } })
  })

  test("-s edits that scope's file directly; a user server is switched in the user file", async () => {
    const env = makeEnv({ '.dsh/mcp.yml': YML })
    let r = await env.run(['disable', '-s', 'project', 'docs'])
    assert.equal(r.stderr, 'Disabled "docs" in .dsh/mcp.yml\n')
    assert.equal(env.read('.dsh/mcp.yml'), `${YML}    enabled: false\n`)
    r = await env.run(['enable', '-s', 'project', 'docs'])
    assert.equal(env.read('.dsh/mcp.yml'), YML)

    await env.run(['add', '-s', 'user', 'u', 'node'])
    const user = () =>
      (parse(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8')) as { servers: Record<string, Record<string, unknown>> })
        .servers
    r = await env.run(['disable', 'u'])
    assert.match(r.stderr, /^Disabled "u" in .*mcp\.yml\n$/)
    assert.equal(user().u?.enabled, false)
    r = await env.run(['enable', 'u'])
    assert.equal('enabled' in user().u!, false)
    r = await env.run(['disable', '-s', 'user', 'gh'])
    assert.equal(r.code, 1)
  })

  test('an unknown name fails with a did-you-mean and writes nothing', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': YML })
    const snap = env.snapshot()
    const r = await env.run(['disable', 'doc'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: no server "doc" in this project or the user file; did you mean "docs"?\n')
    assert.deepEqual(changed(snap, env.snapshot()), [])
  })
})
