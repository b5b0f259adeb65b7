// The flags and environment `npm run mock` reads (`--help` prints them), read and checked in one place, before main.ts
// imports the app: a refused value stops the start with one line naming it.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseDuration } from '#api/control-values.ts'
import {
  parseAllowedHost,
  parseControlToken,
  parseCorsOrigins,
  parseHops,
  parseHost,
  parseOidc,
  parsePort,
  parsePublicOrigin,
} from './cli-values.ts'
import { parseLifetime } from './lifetimes.ts'
import { parseSmtp } from './smtp-values.ts'

export const HELP = `Usage: npm run mock -- [options]
       npm run mock -- migrate (--database <url> | --data <dir>)

Starts the mock backend (the product API, the /__mock control surface and the mock identity provider).

Options:
  --port <n>            Port to listen on (env PORT; default 4010). 0 picks a free one.
  --host <address>      Address to bind (env HOST; default 127.0.0.1).
  --access-ttl <d>      Access token lifetime (default 15m; 1s to 1h). Durations: 500ms, 30s, 15m, 24h, 30d, or
                        plain ms. config.json's tokenLifetimes tells the web app, and the start line names it.
  --refresh-ttl <d>     Refresh family absolute lifetime (default 24h; 1s to 30d).
  --grace <d>           Grace window for the parent of the live refresh token (default 10s).
  --code-cooldown <d>   Time between two codes to one address (default 30s).
  --data <dir>          Keep state in this folder across restarts, in an embedded SQL database (PGlite; one
                        server per folder). A new store is seeded with the demo accounts in development; in
                        production it starts empty. Given a JSON data file of earlier releases, the store goes in
                        <file>.d beside it and takes the file's state once; the file is left as it was.
  --database <url>      Keep state in PostgreSQL (env DATABASE_URL): any number of servers may share it. The
                        password comes from DATABASE_URL or PGPASSWORD, never from the command line. Migrations
                        run at start (under a lock), or alone with: npm run mock -- migrate.
  --web <dir>           Serve the built web app from here (default web/dist when it exists; --web none: API only).
  --production          No /__mock control surface, no mock identity provider (/idp): both answer 404, and
                        external sign-in answers 404 external_sign_in_unavailable. No demo accounts are seeded.
  --trust-proxy <hops>  The number of proxies in front of this server (default 0: none). The client is the
                        address <hops> entries from the right of X-Forwarded-For (1: the entry your one proxy
                        adds), never an entry the client wrote; X-Forwarded-Proto is read from the nearest
                        proxy. A number is required: there is no "trust everything".
  --allow-host <name>   A host name or IP address /__mock also answers to (repeatable; no port or scheme). It
                        always answers to localhost, 127.0.0.1, ::1 and the --host address; any other Host
                        header is refused (403), which keeps pages whose name re-binds to this machine out.
  --control-token <t>   Every /__mock call must send this in the X-Mock-Control-Token header (env
                        MOCK_CONTROL_TOKEN; default: none). Printable ASCII without spaces, at least 16
                        characters (openssl rand -hex 16). npm run scenario reads MOCK_CONTROL_TOKEN too.
  --replay <file.har>   Answer the product API (/api/...) from a recorded HTTP Archive (HAR 1.2: a browser's, or
                        GET /__mock/requests?format=har) instead of the mock backend: each call takes the recorded
                        answer with the same method, path, query and JSON body (secrets match any value); several
                        are served in recorded order, then the last again; a call with none gets 501
                        replay_no_match. The web app is served as usual; /__mock answers only GET /__mock/requests
                        and POST /__mock/reset (start the recorded answers over). Not with --data, --production or
                        the token and code flags.
  --cors-origin <o>     An origin whose pages may call the API with credentials, e.g. https://app.example: the
                        web app served from a static host or CDN (repeatable, or a comma list; scheme, host and
                        port exactly, no * ). It gets Access-Control-Allow-Origin and -Credentials, and its session
                        cookie is SameSite=None; Secure; Partitioned. Any other origin gets no CORS header.
  --mail-outbox <dir>   Write every mail sent (codes included) to this folder, one JSON file each, owner-only:
                        the mail transport where /__mock/mailbox is off (--production). Never logged.
  --smtp <url>          Also send every mail over SMTP (env SMTP_URL; the flag wins): smtp://host:port uses
                        STARTTLS when the server offers it, smtp://host:port?tls=required only with it,
                        smtps://host:port TLS from the start; ?ca=<file> trusts that PEM CA too. Credentials
                        from env SMTP_USER and SMTP_PASSWORD, or SMTP_URL's user part; never printed. A mail
                        the server does not take is tried again 3 times (after 10s, 1m, 5m); docs/mail.md.
  --smtp-from <addr>    The From address (env MAIL_FROM; default Auth Shell <no-reply@localhost>).
  --public-origin <url> The origin people reach this server at, when a proxy changes it (e.g. https://qa.example):
                        the mock OpenID provider's issuer (<url>/idp) and the redirect URIs external sign-in sends.
                        Default: each request's own (Host header; https behind --trust-proxy).
  --oidc-issuer <url>   External sign-in through this OpenID provider (also in --production), as a relying party
                        (openid-client). https, or http on loopback only. With --oidc-client-id; the client
                        secret comes from env OIDC_CLIENT_SECRET only (none: a public client, PKCE alone).
  --oidc-client-id <id> The product's client id at --oidc-issuer.
  --quiet               No request log.
  --help                This text.
`

/** The flags that set up the mock backend, which a replay does not have. */
const NOT_WITH_REPLAY = [
  'data',
  'database',
  'production',
  'access-ttl',
  'refresh-ttl',
  'grace',
  'code-cooldown',
  'smtp',
  'smtp-from',
] as const

/** The flags read and checked; `help` when only the usage is asked for. `defaultWeb`: the built app, if it is there. */
export function readFlags(defaultWeb: string) {
  const { values, positionals } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'access-ttl': { type: 'string' },
      'refresh-ttl': { type: 'string' },
      grace: { type: 'string' },
      'code-cooldown': { type: 'string' },
      data: { type: 'string' },
      database: { type: 'string' },
      web: { type: 'string' },
      production: { type: 'boolean' },
      'trust-proxy': { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'control-token': { type: 'string' },
      replay: { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'mail-outbox': { type: 'string' },
      smtp: { type: 'string' },
      'smtp-from': { type: 'string' },
      'public-origin': { type: 'string' },
      'oidc-issuer': { type: 'string' },
      'oidc-client-id': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: true,
  })
  if (values.help) return { help: true } as const
  const command = readCommand(positionals)
  // A blank PORT or HOST is unset, as an env file leaves it (SMTP_URL and DATABASE_URL alike); a blank flag is refused.
  const port =
    values.port !== undefined
      ? parsePort(values.port, '--port')
      : process.env.PORT?.trim()
        ? parsePort(process.env.PORT, 'PORT')
        : 4010
  const host =
    values.host !== undefined
      ? parseHost(values.host, '--host')
      : process.env.HOST?.trim()
        ? parseHost(process.env.HOST, 'HOST')
        : '127.0.0.1'
  // Express sends files by absolute path only, so a relative --web is resolved here.
  const webRoot =
    values.web === 'none'
      ? undefined
      : values.web
        ? resolve(values.web)
        : existsSync(defaultWeb)
          ? defaultWeb
          : undefined
  const trustProxyHops = parseHops(values['trust-proxy'])
  const controlToken =
    parseControlToken(values['control-token'], '--control-token') ??
    parseControlToken(process.env.MOCK_CONTROL_TOKEN, 'MOCK_CONTROL_TOKEN')
  const allowedHosts = (values['allow-host'] ?? []).map(parseAllowedHost)
  const corsOrigins = parseCorsOrigins(values['cors-origin'] ?? [])
  if (values.data?.trim() === '')
    throw new Error('Failed to start: --data is empty; give a folder, or leave it out (memory).')
  if (values['mail-outbox'] === '')
    throw new Error('Failed to start: --mail-outbox is empty; give a folder, or leave it out.')
  const smtp = parseSmtp({
    flag: values.smtp,
    from: values['smtp-from'],
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
  })
  const publicOrigin = parsePublicOrigin(values['public-origin'])
  const oidc = parseOidc(values['oidc-issuer'], values['oidc-client-id'], process.env.OIDC_CLIENT_SECRET)
  const durations = {
    ...(values['access-ttl'] && { accessTokenTtlMs: parseLifetime(values['access-ttl'], '--access-ttl') }),
    ...(values['refresh-ttl'] && {
      refreshTokenTtlMs: parseLifetime(values['refresh-ttl'], '--refresh-ttl'),
    }),
    ...(values.grace && { refreshGraceMs: parseDuration(values.grace) }),
    ...(values['code-cooldown'] && { codeCooldownMs: parseDuration(values['code-cooldown']) }),
  }
  // An explicit --data wins over a DATABASE_URL the environment happens to carry; two flags are refused.
  const database = parseDatabase(
    values.database,
    values.data === undefined ? process.env.DATABASE_URL : undefined,
  )
  if (database && values.data !== undefined)
    throw new Error('Failed to start: --data and --database each hold the state; give one.')
  if (command === 'migrate' && !database && values.data === undefined)
    throw new Error('Failed to migrate: give --database <url> (or DATABASE_URL) or --data <dir>.')
  if (values.replay !== undefined) {
    const clash = NOT_WITH_REPLAY.find((flag) => values[flag] !== undefined)
    if (clash)
      throw new Error(`Failed to start: --replay serves recorded answers; --${clash} has no place beside it.`)
  }
  return {
    help: false,
    command,
    values,
    database,
    port,
    host,
    webRoot,
    trustProxyHops,
    controlToken,
    allowedHosts,
    corsOrigins,
    publicOrigin,
    oidc,
    smtp,
    durations,
  } as const
}

function readCommand(positionals: string[]): 'serve' | 'migrate' {
  if (positionals.length === 0) return 'serve'
  if (positionals.length === 1 && positionals[0] === 'migrate') return 'migrate'
  throw new Error(`Failed to start: "${positionals.join(' ')}" is no command (the one command is migrate).`)
}

/**
 * The PostgreSQL URL, from --database or DATABASE_URL. A password on the command line is refused: any user of the
 * machine can read a command line (ps); it goes in DATABASE_URL or PGPASSWORD.
 */
function parseDatabase(flag: string | undefined, env: string | undefined): string | undefined {
  const value = flag ?? (env?.trim() || undefined)
  if (value === undefined) return undefined
  const source = flag !== undefined ? '--database' : 'DATABASE_URL'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`Failed to start: ${source} is not a URL (postgres://user@host:5432/database).`)
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`Failed to start: ${source} must be a postgres:// URL.`)
  // node-postgres also reads a password from the query (?password=, and ?sslpassword= for the key's passphrase).
  const secretInQuery = ['password', 'sslpassword'].some((name) => url.searchParams.has(name))
  if (flag !== undefined && (url.password !== '' || secretInQuery))
    throw new Error(
      'Failed to start: --database carries a password, which any user can read in the process list; put it in DATABASE_URL or PGPASSWORD.',
    )
  return value
}
