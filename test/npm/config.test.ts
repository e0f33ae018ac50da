/** npm/config.ts: the user's npm config only (userconfig or ~/.npmrc, env), never a project's .npmrc. */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { npmOptions, readNpmrc } from '../../src/npm/config.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('readNpmrc: key=value lines, comments, quotes, ${VAR} from the environment', () => {
  assert.deepEqual(readNpmrc('; c\n# c\nregistry = "http://127.0.0.1:1/"\n//h/:_authToken=${T}\nbad\n', { T: 'x' }), {
    registry: 'http://127.0.0.1:1/',
    '//h/:_authToken': 'x',
  })
})

test('npmOptions: userconfig file, env overrides, trailing slash, cache as _cacache; other keys dropped', () => {
  const d = makeTempDir()
  const rc = d.write('rc', 'registry=http://127.0.0.1:1\n@s:registry=http://127.0.0.1:2/\nscript-shell=/bin/evil\n')
  const o = npmOptions({ npm_config_userconfig: rc, npm_config_cache: d.join('c') }, d.path)
  assert.deepEqual(o, {
    registry: 'http://127.0.0.1:1/',
    '@s:registry': 'http://127.0.0.1:2/',
    cache: d.join('c', '_cacache'),
  })
  assert.equal(
    npmOptions({ npm_config_userconfig: rc, npm_config_registry: 'http://127.0.0.1:3' }, d.path).registry,
    'http://127.0.0.1:3/',
  )
  // No user config: nothing set (npm's libraries use their default); a project's .npmrc is never read.
  d.write('proj/.npmrc', 'registry=http://127.0.0.1:4/\n')
  assert.deepEqual(npmOptions({}, d.join('nohome')), {})
})
