/**
 * The panel's rows: one project's block, its server rows and refused files,
 * and the fix line with its copy button.
 *
 * Contract: a server row shows its name, the state word the host sent
 * (`state.<state>`), lifecycle, tool count (cached when dormant), signer and
 * schema tokens, the host-redacted last error, and when it does not run the
 * reason kind with the exact command (`data-project-mcp-fix`, copy button).
 * A project block lists per-agent budget lines, then servers, then refused
 * files. `t` is the host's locale function for the `project-mcp` namespace.
 */
import { React, h } from './react.js'
import { tone } from './view.js'

function CopyButton({ text, t }) {
  const [copied, setCopied] = React.useState(false)
  return h(
    'button',
    {
      type: 'button',
      className: 'dpm-copy',
      'data-project-mcp-copy': text,
      onClick: () => {
        const done = () => {
          setCopied(true)
          setTimeout(() => setCopied(false), 1500)
        }
        if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, done)
        else done()
      },
    },
    t(copied ? 'row.copied' : 'row.copy'),
  )
}

function Fix({ kind, fix, t }) {
  return h(
    'div',
    null,
    h('div', { className: 'dpm-why' }, t(`kind.${kind}`)),
    h(
      'div',
      { className: 'dpm-fix' },
      h('code', { 'data-project-mcp-fix': fix }, fix),
      h(CopyButton, { text: fix, t }),
    ),
  )
}

function ServerRow({ root, server, tokens, t }) {
  const meta = [
    t(`row.lifecycle.${server.lifecycle}`),
    server.state === 'mounted'
      ? t('row.tools', { count: server.toolCount })
      : server.state === 'dormant'
        ? t('row.cached', { count: server.toolCount })
        : null,
    server.signed ?? null,
    typeof tokens === 'number' ? t('row.tokens', { count: tokens }) : null,
  ]
    .filter(Boolean)
    .join(' · ')
  return h(
    'li',
    {
      className: 'dpm-row',
      'data-project-mcp-row': server.name,
      'data-root': root,
      'data-state': server.state,
      title: server.words ?? undefined,
    },
    h(
      'div',
      { className: 'dpm-head' },
      h('span', { className: 'dpm-dot', 'data-tone': tone(server) }),
      h('span', { className: 'dpm-name' }, server.name),
      h('span', { className: 'dpm-meta', 'data-project-mcp-state': server.state }, t(`state.${server.state}`)),
      h('span', { className: 'dpm-meta' }, meta),
    ),
    server.lastError ? h('div', { className: 'dpm-error' }, server.lastError) : null,
    server.kind && server.fix ? h(Fix, { kind: server.kind, fix: server.fix, t }) : null,
  )
}

export function ProjectBlock({ project, current, t }) {
  return h(
    'section',
    { 'data-project-mcp-project': project.root },
    h(
      'h3',
      { className: 'dpm-project' },
      h('b', null, t(current ? 'panel.current' : 'panel.other')),
      ` · ${project.root}`,
      project.notRunning > 0 ? ` · ${t('panel.notRunning', { count: project.notRunning })}` : '',
    ),
    project.servers.length === 0 && project.files.length === 0
      ? h('p', { className: 'dpm-note' }, t('panel.noServers'))
      : null,
    (project.budget?.agents ?? []).map((a, i) =>
      h(
        'p',
        { key: `agent-${i}`, className: 'dpm-note', 'data-project-mcp-agent-budget': i + 1 },
        t('panel.agentBudget', { n: i + 1, offered: a.offered, deferred: a.deferred }),
      ),
    ),
    h(
      'ul',
      { className: 'dpm-rows' },
      project.servers.map((s) =>
        h(ServerRow, {
          key: s.name,
          root: project.root,
          server: s,
          tokens: project.budget?.servers.find((b) => b.name === s.name)?.tokens,
          t,
        }),
      ),
      project.files.map((f) =>
        h(
          'li',
          { key: f.file, className: 'dpm-row', 'data-project-mcp-file': f.file, title: f.words },
          h(
            'div',
            { className: 'dpm-head' },
            h('span', { className: 'dpm-dot', 'data-tone': 'error' }),
            h('span', { className: 'dpm-name' }, f.file),
            h('span', { className: 'dpm-meta' }, t('row.file')),
          ),
          h(Fix, { kind: 'refused-file', fix: f.fix, t }),
        ),
      ),
    ),
  )
}
