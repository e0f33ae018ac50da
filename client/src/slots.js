/**
 * The two slot components.
 *
 * Contract: `ServersPanel` (`sidebar.footer.action`) is a footer button with
 * the count of servers that do not run, opening a panel that lists the
 * session's project first, then every known project; `ServersChip`
 * (`conversation.session.header.actions`) renders nothing when every server
 * of the session's project runs, else a warning dot with the count, its
 * tooltip naming which and why. Both read-only.
 */
import { React, h } from './react.js'
import { ProjectBlock } from './rows.js'
import { useCwd, useView } from './stream.js'
import { currentOf, panelCount, problems } from './view.js'

export function ServersPanel({ wide, useSessions, t }) {
  const cwd = useCwd(useSessions, undefined)
  const { view, failed } = useView(cwd)
  const [open, setOpen] = React.useState(false)
  const count = panelCount(view)
  const body = failed
    ? h('p', { className: 'dpm-note', role: 'alert' }, t('panel.unreachable'))
    : view === undefined
      ? h('p', { className: 'dpm-note' }, t('panel.loading'))
      : view.projects.length === 0
        ? h('p', { className: 'dpm-note' }, t('panel.empty'))
        : view.projects.map((p) => h(ProjectBlock, { key: p.root, project: p, current: p.root === view.current, t }))
  return h(
    'div',
    { className: 'dpm-foot' },
    open
      ? h(
          'section',
          { className: 'dpm-panel', 'data-project-mcp-panel': '', 'aria-label': t('panel.aria') },
          h('h2', { className: 'dpm-title' }, t('panel.title')),
          body,
        )
      : null,
    h(
      'button',
      {
        type: 'button',
        className: 'dpm-trigger',
        'data-project-mcp-trigger': count,
        'aria-expanded': open,
        'aria-label': t('panel.aria'),
        onClick: () => setOpen((v) => !v),
      },
      h('span', { className: 'dpm-dot', 'data-tone': count > 0 ? 'warn' : 'ok' }),
      wide === false ? null : h('span', null, t('panel.trigger')),
      count > 0 ? h('span', null, String(count)) : null,
    ),
  )
}

export function ServersChip({ sessionId, useSessions, t }) {
  const cwd = useCwd(useSessions, sessionId)
  const { view } = useView(cwd)
  const project = currentOf(view)
  const count = problems(project)
  if (!project || count === 0) return null
  const which = [
    ...project.servers.filter((s) => s.kind !== null).map((s) => `${s.name}: ${s.words}`),
    ...project.files.map((f) => `${f.file}: ${f.words}`),
  ].join('\n')
  return h(
    'span',
    {
      className: 'dpm-chip',
      role: 'status',
      'data-project-mcp-chip': count,
      title: which,
      'aria-label': t('chip.count', { count }),
    },
    h('span', { className: 'dpm-dot', 'data-tone': 'warn' }),
    String(count),
  )
}
