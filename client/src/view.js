/**
 * Pure reads of a host view (what the events route sends): no React, no DOM.
 *
 * Contract: `tone(server)` is the tone the host sent for the row
 * (src/plan/states.ts STATE_TONE), `'idle'` when absent — never decided here;
 * `currentOf(view)` is the session's project or undefined; `problems(project)`
 * counts servers not running plus refused files; `panelCount(view)` is the
 * session project's count, or with no session project every project's.
 */
/** The host sends each row's tone (src/plan/states.ts STATE_TONE, the one mapping); 'idle' when absent. */
export const tone = (server) => server.tone ?? 'idle'
export const currentOf = (view) =>
  view && view.current !== null ? view.projects.find((p) => p.root === view.current) : undefined
export const problems = (project) => (project ? project.notRunning + project.files.length : 0)
/** The session's project's count; with no session project, every known project's. */
export const panelCount = (view) =>
  view === undefined
    ? 0
    : view.current !== null
      ? problems(currentOf(view))
      : view.projects.reduce((n, p) => n + problems(p), 0)
