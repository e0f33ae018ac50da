/**
 * Whether the host that wrote a status file still lives: the one liveness probe, shared by the host's writer
 * (which removes the files of gone hosts) and the CLI's reader (doctor/status.ts). It ships with the plugin.
 *
 * Contract: `pidAlive(pid)` probes with signal 0 and never signals a process group (pid ≤ 0, null or not a safe
 * integer is "not alive"); a pid this user may not signal (EPERM) lives.
 *
 * @module
 */
export function pidAlive(pid: number | null): boolean {
  if (pid === null || !Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
