/**
 * Doctor: real health checks of configured MCP servers (`dsh-mcp doctor`,
 * `dsh-mcp list --check`) and reading the status files a running host writes
 * (`dsh-mcp status`).
 *
 * @module
 */
export { diagnoseProject, type DiagnoseOptions, fileErrors, shellWord, trustCommand, unknownNames } from './diagnose.ts'
export { childEnv, redact, scrubbedEnv, secretValues } from './env.ts'
export { explain, type Explanation, type Observation } from './hints.ts'
export { killLiveChildren, probe, type ProbeOptions, type ProbeOutcome } from './probe.ts'
export { DOCTOR_RESULT_KEYS, type DoctorResult, type DoctorState, isBroken } from './types.ts'
export { ageText, parseProjectStatus, pidAlive, type ProjectStatus, readProjectStatus, STATUS_STATES, type StatusRead, type StatusServer, type StatusState } from './status.ts'
