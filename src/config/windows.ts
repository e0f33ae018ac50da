/**
 * Windows launch shims: on win32 the package-manager launchers are `.cmd`
 * files that `spawn` without a shell cannot start, so a bare `npx`, `npm`,
 * `pnpm`, `yarn` or `bunx` runs as `cmd /c <command> ...args`.
 *
 * Contract: pure; returns the input untouched on other platforms, for any
 * other command, and for a command that is already a path or has an
 * extension (`C:\\node\\npx.cmd`, `./npx`).
 *
 * @module
 */

export const WINDOWS_SHIMMED = ['npx', 'npm', 'pnpm', 'yarn', 'bunx'] as const

export interface Launch {
  command: string
  args: string[]
}

export function windowsLaunch(launch: Launch, platform: string): Launch {
  if (platform !== 'win32') return launch
  const bare = launch.command.toLowerCase()
  if (!(WINDOWS_SHIMMED as readonly string[]).includes(bare)) return launch
  return { command: 'cmd', args: ['/c', launch.command, ...launch.args] }
}
