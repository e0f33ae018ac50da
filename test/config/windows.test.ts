/** windowsLaunch: bare package-manager launchers run through `cmd /c` on win32, nothing else changes. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { WINDOWS_SHIMMED, windowsLaunch } from '../../src/config/windows.ts'

describe('windowsLaunch', () => {
  for (const cmd of WINDOWS_SHIMMED) {
    it(`runs bare ${cmd} through cmd /c on win32 only`, () => {
      assert.deepEqual(windowsLaunch({ command: cmd, args: ['a'] }, 'win32'), {
        command: 'cmd',
        args: ['/c', cmd, 'a'],
      })
      assert.deepEqual(windowsLaunch({ command: cmd, args: ['a'] }, 'linux'), { command: cmd, args: ['a'] })
      assert.deepEqual(windowsLaunch({ command: cmd, args: [] }, 'darwin'), { command: cmd, args: [] })
    })
  }
  it('matches case-insensitively and keeps the spelling', () => {
    assert.deepEqual(windowsLaunch({ command: 'NPX', args: [] }, 'win32'), { command: 'cmd', args: ['/c', 'NPX'] })
  })
  it('leaves paths, extensions and other commands alone', () => {
    for (const command of ['npx.cmd', 'C:\\node\\npx.cmd', './npx', 'node', 'uvx', 'npxx']) {
      assert.deepEqual(windowsLaunch({ command, args: ['x'] }, 'win32'), { command, args: ['x'] })
    }
  })
})
