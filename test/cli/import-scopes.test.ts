/**
 * Every importer keeps each source's scope: Claude Code's `.mcp.json` →
 * project, `~/.claude.json` top-level servers → user, its
 * `projects[<root>]` servers → local (Claude Code's default scope); Claude
 * Desktop's config (found on each OS) → user; Codex's and the home Cursor
 * and Gemini files → user; `-s` still sends everything to one scope.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { parse } from 'yaml'
import { desktopConfig } from '../../src/cli/importers/sources.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

import { makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

const names = (text: string) => Object.keys((parse(text) as { servers: Record<string, unknown> }).servers)
const server = (cmd: string) => ({ command: 'node', args: [`${cmd}.js`] })

function claudeHome(root: string): string {
  return JSON.stringify({
    numStartups: 3,
    mcpServers: { everywhere: server('everywhere') },
    projects: {
      [root]: { mcpServers: { mine: server('mine') }, allowedTools: [] },
      '/some/other/project': { mcpServers: { theirs: server('theirs') } },
    },
  })
}

describe('--from claude', () => {
  test('.mcp.json → project, ~/.claude.json → user (top level) and local (this project)', async () => {
    const env = makeEnv({ '.mcp.json': JSON.stringify({ mcpServers: { team: server('team') } }) })
    env.home.write('.claude.json', claudeHome(env.project.path))
    const r = await env.run(['import', '--from', 'claude'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(names(env.read('.dsh/mcp.yml')), ['team'])
    assert.deepEqual(names(env.read('.dsh/mcp.local.yml')), ['mine'])
    assert.deepEqual(names(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8')), ['everywhere'])
    assert.match(env.read('.dsh/.gitignore'), /^mcp\.local\.yml$/m)
    assert.match(r.stdout, /add +mine +~\/\.claude\.json \(this project\)/)
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /theirs/, "another project's servers are not read")
    assert.match(
      r.stderr,
      /^Imported 1 server into \.dsh\/mcp\.yml, 1 server into \.dsh\/mcp\.local\.yml, 1 server into ~\/\.dsh\/mcp\.yml\nnot trusted \(from a file inside a repository or not yours\): team; /,
    )
  })

  test('$CLAUDE_CONFIG_DIR holds .claude.json when set; -s project sends everything to .dsh/mcp.yml', async () => {
    const env = makeEnv()
    const dir = makeTempDir()
    dir.write('.claude.json', claudeHome(env.project.path))
    const r = await env.run(['import', '--from', 'claude', '-s', 'project'], { env: { CLAUDE_CONFIG_DIR: dir.path } })
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(names(env.read('.dsh/mcp.yml')).sort(), ['everywhere', 'mine'])
    assert.equal(existsSync(`${env.dshHome}/mcp.yml`), false)
  })

  test('only ~/.claude.json, without this project in it: the user servers alone', async () => {
    const env = makeEnv()
    env.home.write('.claude.json', JSON.stringify({ mcpServers: { everywhere: server('everywhere') }, projects: {} }))
    const r = await env.run(['import', '--from', 'claude'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(names(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8')), ['everywhere'])
    assert.equal(existsSync(env.project.join('.dsh', 'mcp.local.yml')), false)
  })
})

describe('--from claude-desktop', () => {
  test('the config path on each OS', () => {
    const home = '/home/u'
    assert.equal(
      desktopConfig({ root: '/r', home, env: {}, platform: 'darwin' }),
      '/home/u/Library/Application Support/Claude/claude_desktop_config.json',
    )
    assert.equal(
      desktopConfig({ root: '/r', home, env: { APPDATA: '/appdata' }, platform: 'win32' }),
      '/appdata/Claude/claude_desktop_config.json',
    )
    assert.equal(
      desktopConfig({ root: '/r', home, env: {}, platform: 'win32' }),
      '/home/u/AppData/Roaming/Claude/claude_desktop_config.json',
    )
    assert.equal(
      desktopConfig({ root: '/r', home, env: {}, platform: 'linux' }),
      '/home/u/.config/Claude/claude_desktop_config.json',
    )
    assert.equal(
      desktopConfig({ root: '/r', home, env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'linux' }),
      '/xdg/Claude/claude_desktop_config.json',
    )
  })
  test('found here (Linux: ~/.config/Claude), imported into the user layer', async () => {
    const env = makeEnv()
    env.home.write(
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { desk: server('desk') } }),
    )
    const r = await env.run(['import', '--from', 'claude-desktop'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(names(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8')), ['desk'])
    assert.equal(existsSync(env.project.join('.dsh', 'mcp.yml')), false)
  })
  test('missing: exit 1 naming the file', async () => {
    const r = await makeEnv().run(['import', '--from', 'claude-desktop'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /--from claude-desktop: ~\/\.config\/Claude\/claude_desktop_config\.json does not exist/)
  })
})

test('home files of Cursor and Gemini are user scope, their project files project scope', async () => {
  const env = makeEnv({ '.cursor/mcp.json': JSON.stringify({ mcpServers: { cproj: server('cproj') } }) })
  env.home.write('.cursor/mcp.json', JSON.stringify({ mcpServers: { cuser: server('cuser') } }))
  env.home.write('.gemini/settings.json', JSON.stringify({ mcpServers: { guser: server('guser') } }))
  const r = await env.run(['import', '--yes'])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(names(env.read('.dsh/mcp.yml')), ['cproj'])
  assert.deepEqual(names(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8')), ['cuser', 'guser'])
})
