/** Unpinned package runners: each is caught with its exact pinned form; an exact version is left alone. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { unpinnedRunner } from '../../src/config/runners.ts'

test('unpinned package runners: each is caught with its exact pinned form; an exact version is left alone', () => {
  const cases: [string, string[], string | undefined][] = [
    ['npx', ['-y', 'some-mcp'], 'npx -y some-mcp@<version>'],
    ['npx', ['some-mcp', '--stdio'], 'npx some-mcp@<version> --stdio'],
    ['npx', ['-y', '@scope/srv@latest'], 'npx -y @scope/srv@<version>'],
    ['npx', ['-y', '@scope/srv@1.2.3'], undefined],
    ['npx', ['--package', 'srv', 'srv-bin'], 'npx --package srv@<version> srv-bin'],
    ['/usr/local/bin/npx', ['-y', 'srv@^1'], '/usr/local/bin/npx -y srv@<version>'],
    ['pnpm', ['dlx', 'srv'], 'pnpm dlx srv@<version>'],
    ['yarn', ['dlx', 'srv'], 'yarn dlx srv@<version>'],
    ['bunx', ['srv'], 'bunx srv@<version>'],
    ['npm', ['exec', 'srv'], 'npm exec srv@<version>'],
    ['uvx', ['mcp-server-git'], 'uvx mcp-server-git@<version>'],
    ['uvx', ['mcp-server-git@0.6.2'], undefined],
    ['uv', ['tool', 'run', 'srv'], 'uv tool run srv@<version>'],
    ['pipx', ['run', 'srv'], 'pipx run --spec srv==<version> srv'],
    ['pipx', ['run', '--spec', 'srv==1.0.0', 'srv'], undefined],
    ['node', ['server.js'], undefined],
    ['pnpm', ['install'], undefined],
  ]
  for (const [command, args, want] of cases) {
    const got = unpinnedRunner(command, args)
    assert.equal(got ? got.pinned.join(' ') : undefined, want, `${command} ${args.join(' ')}`)
  }
})
