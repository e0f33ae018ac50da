/**
 * Doctor: real health checks of configured MCP servers (`dsh-mcp doctor`,
 * `dsh-mcp list --check`). The entry point the CLI loads lazily; the pieces
 * (env scrub, hints, probe, status reading) are imported from their own files.
 *
 * @module
 */
export { diagnoseProject, type DiagnoseOptions } from './diagnose.ts'
export { killLiveChildren } from './probe.ts'
export { DOCTOR_RESULT_KEYS, type DoctorResult, type DoctorState, isBroken } from './types.ts'
