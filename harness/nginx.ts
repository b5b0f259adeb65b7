// nginx for the balancer leg (harness/balancer-leg.ts): Debian's package, installed where it is missing and this
// process may. Under CI=true an nginx that cannot be had is a failure, never a skipped leg.
import { existsSync } from 'node:fs'
import { aptInstall, canUseAptGet } from './apt.ts'

const NGINX = '/usr/sbin/nginx'

/**
 * The nginx binary, or why there is none.
 * @example const nginx = ensureNginx(); if ('path' in nginx) spawn(nginx.path, [...])
 */
export function ensureNginx(): { path: string } | { skipped: string } {
  if (existsSync(NGINX)) return { path: NGINX }
  try {
    if (!canUseAptGet())
      throw new Error("installing it needs root and apt-get; install Debian's nginx instead")
    console.log('Installing nginx (apt-get install nginx)...')
    aptInstall(['nginx'], 'nginx', ['--no-install-recommends'])
    if (!existsSync(NGINX)) throw new Error(`apt-get installed nginx, but ${NGINX} is missing`)
    return { path: NGINX }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    if (process.env.CI === 'true')
      throw new Error(`Failed to get nginx for the balancer leg: ${reason}`, { cause: error })
    return { skipped: `No nginx for the balancer leg (${reason}); the leg is skipped.` }
  }
}
