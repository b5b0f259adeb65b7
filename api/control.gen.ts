// Generated from api/control.openapi.yaml by scripts/gen-api.ts (npm run gen:api). Do not edit by hand.

export interface paths {
  '/__mock/reset': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Back to the seed state (accounts, clock, scenarios, mailbox, journal).
     * @description Takes a JSON body (`{}`), like every write of the control surface, so a plain cross-site form
     *     post (which cannot send `application/json`) is refused before it wipes anything.
     */
    post: operations['resetMock']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/clock': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The server's clock. */
    get: operations['getClock']
    put?: never
    /** Advance the clock (`advance_ms`) or set it (`now`). It never goes back past real time's offset 0 unless set. */
    post: operations['setClock']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/scenarios': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The scenarios that can be armed, and those armed now (earliest first). */
    get: operations['listScenarios']
    put?: never
    /**
     * Arm a scenario.
     * @description Each call of the product API takes the earliest armed scenario that matches it (its name's
     *     calls, its `email`'s account when given, its `operation` when given); that scenario then
     *     serves `times` matching calls (default 1) and is spent, or stays until cleared with
     *     `until_cleared`.
     */
    post: operations['armScenario']
    /** Disarm every scenario, or one account's. */
    delete: operations['clearScenarios']
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/mailbox': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The mails "sent", oldest first; one address's with `email`. */
    get: operations['getMailbox']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/requests': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The request journal of the product API, oldest first; as JSON or as an HTTP Archive (HAR 1.2).
     * @description `since` is a `seq` (entries after it) or a date-time (entries at or after it, by the
     *     server's clock). The JSON entries name paths without their query strings.
     *
     *     `format=har` answers the same entries (the same `email` and `since` filters) as an HTTP Archive
     *     1.2 (`Har`), for a HAR viewer or for `npm run mock -- --replay <file.har>`: each call's URL with
     *     its query, its headers, cookies and JSON body, and its answer's status, headers, cookies and body,
     *     as the mock server read and wrote them. Secrets are replaced by `[redacted]` wherever they are
     *     (bodies both ways, headers, query strings, cookies, `Location`): every field or parameter whose
     *     name, lower-cased and without `_` or `-`, holds `password`, `passwd`, `token`, `secret` or
     *     `apikey`, or is `code`, `codeverifier`, `otp`, `state` or `nonce` (`newPassword`, `accessToken`,
     *     `refresh_token`, `id_token`, `?code=` alike); the credentials of `Authorization` (its scheme is
     *     kept), `X-Mock-Control-Token` and any header so named; the value of every cookie of `Cookie` and
     *     `Set-Cookie`. The journal keeps headers and bodies, redacted, for its newest calls within about
     *     8 MiB of text; an older entry comes without them and says so in its `comment`. A call whose
     *     answer was dropped (`answer-lost`) is written as a browser writes a request that got no answer:
     *     status -1, no content, `_failureText`. docs/decisions/017-har-record-and-replay.md has the reasons.
     *
     *     Under `--replay` this lists the calls the replay answered, each with `replay` (the HAR entry it
     *     served, or none).
     */
    get: operations['getRequests']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/build': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Serve another build id as the newest (`/builds/latest.json`), to act out a deployment. */
    post: operations['setServedBuild']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/state': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * What the server holds, secrets as fingerprints; to see what a call changed.
     * @description Every collection of the store (`store`: accounts, sessions, refresh tokens, codes, reset tokens, process
     *     steps; each record as the server keeps it, with its own field names and times in ms since the epoch), the
     *     wrong codes counted per address and purpose (`guesses`, sorted by `key`), the mailbox (as
     *     `GET /__mock/mailbox` shows it, codes included), the armed scenarios and the clock's offset. Two reads around
     *     a call show what the call changed: the contract suite checks this way that a refused call changes nothing,
     *     also against a server it did not start (`CONTRACT_TARGET`, docs/decisions/016-contract-target.md).
     *
     *     No secret leaves the server in a usable form: every field that holds a hash or a sealed secret (an account's
     *     `passwordHash`; a session's `cookieHash` and `serviceTokenHash`; a refresh token's `hash` and `graceBox`; a
     *     code's `hash` and its sign-up's `passwordHash`; a reset token's `hash`) is given as its fingerprint, the first
     *     16 hex digits of the SHA-256 of its value: a change still shows, the value does not.
     */
    get: operations['getState']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/settings': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The rules' figures this server was started with; read-only, never a secret.
     * @description The effective value of every setting the product's rules run on, defaults included: token lifetimes, the
     *     refresh grace window, the code rules, the lock-out, the rate limits, and whether the server is in production
     *     mode. The contract suite reads it against a server it did not start (`CONTRACT_TARGET`), so a check built
     *     for a setting equal to the target's runs there rather than being skipped
     *     (docs/decisions/016-contract-target.md). It carries no token, no key, no password and not the control token;
     *     the addresses, folders and origins a server was started with are not rules and are not listed.
     */
    get: operations['getSettings']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/docs': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The interactive reference of the product API, or of this control surface.
     * @description A page with a link to each document and Redoc rendering the one asked for, read from
     *     `/__mock/docs/{document}.json`. Its scripts are files of this server (`script-src 'self'`, the security
     *     headers every answer carries): nothing is inlined and nothing is loaded from another host.
     */
    get: operations['showApiDocs']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/docs/{document}.json': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One of the two OpenAPI documents, as JSON, for the reference page. */
    get: operations['getDocsDocument']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/docs/redoc.standalone.js': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Redoc's standalone bundle, from the installed `redoc` package.
     * @description The package's `bundles/redoc.standalone.js` as installed, with one change: the Redocly logo its side menu
     *     loads from Redocly's CDN is left out, so the page asks no other host for anything.
     */
    get: operations['getDocsViewer']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/{project}/envelope/': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * The error-reporting ingest (Sentry's envelope endpoint).
     * @description Newline-delimited JSON, up to 1 MiB. Each item is stored; events are listed at `/__mock/sentry/events`.
     */
    post: operations['receiveSentryEnvelope']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/sentry/events': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The error events received, oldest first. */
    get: operations['listSentryEvents']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/ingest/v1/web/start': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** The session recorder starts (or resumes) a session. */
    post: operations['startRecording']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/ingest/v1/web/tags': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The recorder's tag list (none here). */
    get: operations['getRecorderTags']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/ingest/v1/web/i': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** A batch of recorded messages (binary, gzip when large), with the session's bearer token. */
    post: operations['receiveRecorderBatch']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/ingest/v1/web/images': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Canvas captures (multipart); counted, not kept. */
    post: operations['receiveRecorderImages']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/recorder/sessions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The recorded sessions, with the user id and metadata each carries (oldest first). */
    get: operations['listRecorderSessions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/idp/accounts': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Add an account to the mock OpenID provider (or rename one), so it can sign in there.
     * @description The provider starts with the product's verified seed addresses; a reset brings back just those.
     *     `prompt=none` with `login_hint=<email>` signs in only as an account the provider has.
     */
    post: operations['addIdpAccount']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/__mock/idp/clients': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Register a relying party with the mock OpenID provider.
     * @description A confidential client (a `client_secret`, sent with HTTP Basic or in the token request's body) or,
     *     with `public: true`, a public one (no secret: `token_endpoint_auth_method` `none`, PKCE alone).
     *     The provider sends it back only to a redirect URI it registered, compared exactly. Registrations
     *     live until a reset or a restart.
     */
    post: operations['registerIdpClient']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/idp/.well-known/openid-configuration': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The provider's discovery document (OpenID Connect Discovery 1.0).
     * @description `issuer` is `<origin>/idp` for the origin this request reached (the `Host` header, and https
     *     behind `--trust-proxy`), or the `--public-origin` when one is set; every endpoint is under it.
     *     Readable from any origin (`Access-Control-Allow-Origin: *`, no credentials).
     */
    get: operations['getIdpConfiguration']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/idp/jwks': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The keys that sign the provider's ID tokens (public members only).
     * @description One ES256 (P-256) key made at start; its `kid` is its RFC 7638 thumbprint. Readable from any origin.
     */
    get: operations['getIdpJwks']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/idp/authorize': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The authorization endpoint (authorization code flow, PKCE S256 required).
     * @description Takes the parameters of RFC 6749 section 4.1.1, RFC 7636 and OpenID Connect Core 3.1.2.1; each is
     *     checked here, not by the schema. A missing or unknown `client_id`, or a `redirect_uri` that is
     *     missing, not absolute or not the client's, gets a 400 page and never a redirect (the product's own
     *     client may be sent back to any path of the origin the provider is reached at). Any other fault goes
     *     back to the `redirect_uri` with `error`, `error_description` and the `state`
     *     (`invalid_request`, `unsupported_response_type`, `invalid_scope`). With `prompt=none` the browser
     *     goes straight back: with a `code` when `login_hint` names an account of the provider (and, when the
     *     server has a control token, the request carries it in `X-Mock-Control-Token`), else with
     *     `error=login_required`. Otherwise the sign-in form is shown (`login_hint` fills its address).
     */
    get: operations['showIdpSignIn']
    put?: never
    /**
     * The sign-in form's answer; the browser goes back to the client with a code.
     * @description The mock provider vouches for whoever is typed: an address it does not have becomes one of its
     *     accounts (a name, when given, renames it). `request` names the checked authorization request the
     *     form was shown for; it is good once, for 10 minutes.
     */
    post: operations['submitIdpSignIn']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/idp/token': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * The token endpoint (RFC 6749 section 4.1.3, RFC 7636 section 4.5).
     * @description `grant_type=authorization_code` with the `code`, the `redirect_uri` it was issued for and the PKCE
     *     `code_verifier`. The client authenticates with HTTP Basic (`client_secret_basic`), with `client_id`
     *     and `client_secret` in the body (`client_secret_post`), or, a public client, with `client_id` alone
     *     (`none`). A code is good once and for 2 minutes: a wrong verifier or `redirect_uri` spends it too, and
     *     a code presented again revokes the access token it bought. Errors follow RFC 6749 section 5.2.
     *     Never cached; callable from any origin (no credentials).
     */
    post: operations['requestIdpToken']
    delete?: never
    /** The CORS preflight of the token endpoint. */
    options: operations['preflightIdpToken']
    head?: never
    patch?: never
    trace?: never
  }
  '/idp/userinfo': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The userinfo endpoint (OpenID Connect Core section 5.3), with the provider's access token as a bearer. */
    get: operations['getIdpUserinfo']
    put?: never
    /** The userinfo endpoint by POST, as OpenID Connect Core section 5.3.1 asks (the bearer in the header). */
    post: operations['postIdpUserinfo']
    delete?: never
    /** The CORS preflight of the userinfo endpoint. */
    options: operations['preflightIdpUserinfo']
    head?: never
    patch?: never
    trace?: never
  }
  '/healthz': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Liveness, the process answers.
     * @description Answers 200 as long as the process can answer at all; it asks no dependency (a database that is down makes
     *     the server unready, not dead). For an orchestrator's liveness probe.
     */
    get: operations['getLiveness']
    put?: never
    post?: never
    delete?: never
    options?: never
    /** Liveness, headers only. */
    head: operations['headLiveness']
    patch?: never
    trace?: never
  }
  '/readyz': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Readiness, every dependency answers and the server is not stopping.
     * @description Runs every readiness probe the server was composed with (its store, its mail transport), each bounded in
     *     time, and answers 200 when all of them answer; 503 with `Retry-After` and the probes that failed otherwise,
     *     and while the server stops (`server: stopping`). A probe's error is never shown, only its name and
     *     `unreachable` or `timeout`. For an orchestrator's readiness probe and a load balancer's health check.
     */
    get: operations['getReadiness']
    put?: never
    post?: never
    delete?: never
    options?: never
    /** Readiness, headers only. */
    head: operations['headReadiness']
    patch?: never
    trace?: never
  }
}
export type webhooks = Record<string, never>
export interface components {
  schemas: {
    /**
     * @description Every machine-readable code an error of this document carries; each response names the ones it
     *     can carry. `not_found` and `method_not_allowed` also answer a path or method no operation serves.
     * @enum {string}
     */
    ControlErrorCode:
      | 'host_not_allowed'
      | 'control_token_required'
      | 'cross_site_request'
      | 'validation_failed'
      | 'invalid_json'
      | 'bad_request'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'batch_unreadable'
      | 'envelope_unreadable'
      | 'clock_out_of_range'
      | 'token_invalid'
      | 'not_found'
      | 'method_not_allowed'
      | 'internal_error'
    /** @description An absolute http or https URI without a fragment, in printable ASCII. */
    AbsoluteRedirectUri: string
    IdpAccount: {
      sub: string
      email: string
      name: string
    }
    /** @description An error of RFC 6749 section 5.2 (or RFC 6750 section 3 at userinfo). */
    OAuthError: {
      /** @enum {unknown} */
      error:
        | 'invalid_request'
        | 'invalid_client'
        | 'invalid_grant'
        | 'unauthorized_client'
        | 'unsupported_grant_type'
        | 'invalid_scope'
        | 'invalid_token'
      error_description?: string
    }
    Names: string[]
    OpenIdConfiguration: {
      /** Format: uri */
      issuer: string
      /** Format: uri */
      authorization_endpoint: string
      /** Format: uri */
      token_endpoint: string
      /** Format: uri */
      userinfo_endpoint: string
      /** Format: uri */
      jwks_uri: string
      response_types_supported: components['schemas']['Names']
      subject_types_supported: components['schemas']['Names']
      id_token_signing_alg_values_supported: components['schemas']['Names']
      code_challenge_methods_supported: components['schemas']['Names']
      token_endpoint_auth_methods_supported: components['schemas']['Names']
    } & {
      [key: string]: string[]
    }
    Readiness: {
      /** @enum {unknown} */
      status: 'ok' | 'unavailable'
      /**
       * @description Each probe by name: `ok`, `unreachable` (it answered no, or failed) or `timeout`; while the server stops,
       *     only `server: stopping`.
       */
      checks: {
        [key: string]: 'ok' | 'unreachable' | 'timeout' | 'stopping'
      }
    }
    Error: {
      error?: components['schemas']['ControlErrorCode']
      message?: string
      fields?: {
        [key: string]: string
      }
    }
    /**
     * @description Which document the reference shows: `api` (openapi.yaml, the default) or `control` (this one).
     * @enum {string}
     */
    DocsDocument: 'api' | 'control'
    MockSettings: {
      /** @description Production mode; always false here, since a server in production mode answers /__mock 404. */
      production: boolean
      /** @description How long an access token lives. */
      access_token_ttl_ms: number
      /** @description A refresh family's absolute lifetime. */
      refresh_token_ttl_ms: number
      /** @description How long a rotated refresh token still gets the live pair of its family. */
      refresh_grace_ms: number
      /** @description How long a mailed code lives. */
      code_ttl_ms: number
      /** @description How long after one code another may be sent to the same address and purpose. */
      code_cooldown_ms: number
      /** @description Wrong tries a code takes before it is spent. */
      code_max_attempts: number
      code_guess_limit: components['schemas']['SettingsLimit']
      login_rate_limit: components['schemas']['SettingsLimit']
      mail_rate_limit: components['schemas']['SettingsLimit']
      verify_rate_limit: components['schemas']['SettingsLimit']
      /** @description Consecutive wrong passwords from one address that lock it out of an account, and for how long. */
      lockout: {
        threshold: number
        lock_ms: number
      }
      /** @description Decoy codes kept at most. */
      max_decoys: number
      /** @description Accounts never verified kept at most. */
      max_unverified_accounts: number
    }
    /** @description At most `max` in any window of `window_ms`. */
    SettingsLimit: {
      max: number
      window_ms: number
    }
    Clock: {
      /**
       * Format: date-time
       * @description The server's time; it runs on from where it was set, and stops at 9999-12-31T23:59:59.999Z.
       */
      now: string
      /** @description How far the server's clock is from real time. */
      offset_ms: number
    }
    /**
     * @description What each one does is listed by `GET /__mock/scenarios` (and in the README). `answer-lost` is
     *     the one fault that does not change the answer but loses it: the call runs for real (a refresh
     *     rotates the token in the store, the journal records the status the server computed), then the
     *     connection is dropped before a status line is sent, so the client sees a network error and
     *     never learns the outcome.
     * @enum {string}
     */
    ScenarioName:
      | 'access-token-expired'
      | 'access-token-invalid'
      | 'unauthorized-no-code'
      | 'unauthorized-other'
      | 'unauthorized-no-message'
      | 'refresh-rejected'
      | 'refresh-unsuccessful'
      | 'refresh-incomplete'
      | 'session-unavailable'
      | 'server-error'
      | 'latency'
      | 'legacy-user-fields'
      | 'answer-lost'
    ScenarioInfo: {
      name: components['schemas']['ScenarioName']
      description: string
      /** @description The operationIds whose calls it matches. */
      operations: string[]
    }
    /**
     * @description One scenario to arm. Each variant names the scenarios it arms, the product operations they
     *     apply to (`operation` may narrow them), and the fields they take: `status` only with
     *     `server-error`, `delay_ms` only with `latency`. `x-needs-bearer`: only calls that carried a
     *     bearer token match. The mock server's scenario sets are generated from these variants
     *     (`npm run gen:api`).
     */
    ArmRequest:
      | components['schemas']['ArmTokenScenario']
      | components['schemas']['ArmRefreshScenario']
      | components['schemas']['ArmSessionScenario']
      | components['schemas']['ArmServerError']
      | components['schemas']['ArmLatency']
      | components['schemas']['ArmAnswerLost']
      | components['schemas']['ArmLegacyUserFields']
    /**
     * Format: email
     * @description Only calls of this account match (the account named by the body, the bearer token, the refresh token or the session cookie).
     */
    ArmEmail: string
    /** @description How many matching calls it serves (default 1). */
    ArmTimes: number
    /** @description Serve every matching call until cleared (overrides `times`). */
    ArmUntilCleared: boolean
    /** @description The `message` of the answer, where the scenario sends one. */
    ArmMessage: string
    /** @description A 401 in place of a call that carried a bearer token. */
    ArmTokenScenario: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name:
        | 'access-token-expired'
        | 'access-token-invalid'
        | 'unauthorized-no-code'
        | 'unauthorized-other'
        | 'unauthorized-no-message'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?: 'getMe' | 'getProcess' | 'updateProcessStep' | 'getHelp' | 'updatePassword'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
    }
    /** @description A refresh that fails or comes back without its refresh token. */
    ArmRefreshScenario: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'refresh-rejected' | 'refresh-unsuccessful' | 'refresh-incomplete'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?: 'refreshToken'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
    }
    /** @description The session call answers 500 session_unavailable. */
    ArmSessionScenario: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'session-unavailable'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?: 'getSession'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
    }
    /** @description Any call answers `status` (default 503) server_error. */
    ArmServerError: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'server-error'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?:
        | 'getSession'
        | 'deleteSession'
        | 'refreshToken'
        | 'login'
        | 'signup'
        | 'sendOtp'
        | 'verifyOtp'
        | 'forgotPassword'
        | 'updatePassword'
        | 'authorizeExternal'
        | 'exchangeCallback'
        | 'getMe'
        | 'getProcess'
        | 'updateProcessStep'
        | 'getHelp'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
      /** @description The 5xx status to answer (default 503). */
      status?: number
    }
    /** @description Any call is answered `delay_ms` (default 1000) later. */
    ArmLatency: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'latency'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?:
        | 'getSession'
        | 'deleteSession'
        | 'refreshToken'
        | 'login'
        | 'signup'
        | 'sendOtp'
        | 'verifyOtp'
        | 'forgotPassword'
        | 'updatePassword'
        | 'authorizeExternal'
        | 'exchangeCallback'
        | 'getMe'
        | 'getProcess'
        | 'updateProcessStep'
        | 'getHelp'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
      /** @description How long to hold the call (default 1000). */
      delay_ms?: number
    }
    /** @description Any call runs, but its answer is never sent. */
    ArmAnswerLost: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'answer-lost'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?:
        | 'getSession'
        | 'deleteSession'
        | 'refreshToken'
        | 'login'
        | 'signup'
        | 'sendOtp'
        | 'verifyOtp'
        | 'forgotPassword'
        | 'updatePassword'
        | 'authorizeExternal'
        | 'exchangeCallback'
        | 'getMe'
        | 'getProcess'
        | 'updateProcessStep'
        | 'getHelp'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
    }
    /** @description Users in answers carry userId/emailId instead of id/email. */
    ArmLegacyUserFields: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      name: 'legacy-user-fields'
      /**
       * @description Only calls of this operationId match.
       * @enum {unknown}
       */
      operation?: 'getSession' | 'login' | 'verifyOtp' | 'exchangeCallback' | 'getMe'
      email?: components['schemas']['ArmEmail']
      times?: components['schemas']['ArmTimes']
      until_cleared?: components['schemas']['ArmUntilCleared']
      message?: components['schemas']['ArmMessage']
    }
    ArmedScenario: {
      id: string
      name: components['schemas']['ScenarioName']
      email?: string
      operation?: string
      /** @description Calls left to serve; null while armed until cleared. */
      remaining: number | null
      status?: number
      message?: string
      delay_ms?: number
      /** Format: date-time */
      armed_at: string
    }
    SentryEvent: {
      event_id: string
      /** @description The envelope item's type (event, transaction, session, ...). */
      type: string
      /** Format: date-time */
      received_at: string
      level?: string
      environment?: string
      /** @description The event's message, or its first exception as "Type: value". */
      message?: string
      exception?: {
        type?: string
        value?: string
      }[]
      tags?: {
        [key: string]: unknown
      }
      release?: string
      transaction?: string
    }
    RecorderStart: {
      token: string
      userUUID: string
      sessionID: string
      projectID: string
      delay: number
      beaconSizeLimit: number
      compressionThreshold?: number
      startTimestamp: number
      protocolVersion: number
      canvasEnabled?: boolean
    }
    RecorderSession: {
      id: string
      project_key: string
      /** Format: date-time */
      started_at: string
      /** @description The latest user id the recorder set (null once cleared, or never set). */
      user_id: string | null
      metadata: {
        [key: string]: string
      }
      batches: number
      messages: number
    }
    Mail: {
      to: string
      subject: string
      /** @enum {string} */
      purpose: 'signup' | 'login' | 'reset' | 'account_exists' | 'password_changed'
      code?: string
      /** Format: date-time */
      sent_at: string
    }
    JournalEntry: {
      seq: number
      method: string
      path: string
      operation?: string
      /** @description The status the server computed, also when `answer-lost` kept it from being sent. */
      status: number
      /** Format: date-time */
      at: string
      email?: string
      /** @description The scenario that answered, shaped or dropped the answer of this call, if any. */
      scenario?: string
      /**
       * @description Under `--replay` only: whether a recorded answer was served, and which (`entry`, the index of the
       *     HAR file's `log.entries`, counting from 0).
       */
      replay?: {
        matched: boolean
        entry?: number
      }
    }
    /** @description The first 16 hex digits of the SHA-256 of a hash or sealed secret the server keeps. */
    Fingerprint: string
    MockState: {
      store: {
        users: components['schemas']['StateUser'][]
        sessions: components['schemas']['StateSession'][]
        refreshTokens: components['schemas']['StateRefreshToken'][]
        codes: components['schemas']['StateCode'][]
        resetTokens: components['schemas']['StateResetToken'][]
        steps: components['schemas']['StateStep'][]
      }
      /** @description The times (ms since the epoch, by the server's clock) of the wrong codes counted, per `<purpose>:<address>`. */
      guesses: {
        key: string
        times: number[]
      }[]
      mails: components['schemas']['Mail'][]
      scenarios: components['schemas']['ArmedScenario'][]
      clock: {
        offset_ms: number
      }
    }
    StateUser: {
      id: string
      email: string
      name: string
      passwordHash: components['schemas']['Fingerprint']
      verified: boolean
      createdAt: number
    }
    StateSession: {
      id: string
      userId: string
      cookieHash: components['schemas']['Fingerprint']
      serviceTokenHash: components['schemas']['Fingerprint']
      createdAt: number
      expiresAt: number
      revokedAt: number | null
      revokedReason: string | null
    }
    StateRefreshToken: {
      id: string
      sessionId: string
      hash: components['schemas']['Fingerprint']
      createdAt: number
      retiredAt: number | null
      childId: string | null
      /** @description The child pair sealed under this token while the grace window is open (its fingerprint), else null. */
      graceBox: components['schemas']['Fingerprint'] | null
    }
    StateCode: {
      id: string
      email: string
      /** @enum {string} */
      purpose: 'signup' | 'login' | 'reset'
      hash: components['schemas']['Fingerprint']
      sentAt: number
      expiresAt: number
      attempts: number
      usedAt: number | null
      burned: boolean
      supersededAt: number | null
      /** @description The sign-up a `signup` code proves (its name and its password hash's fingerprint), else null. */
      signup: {
        name: string
        passwordHash: components['schemas']['Fingerprint']
      } | null
    }
    StateResetToken: {
      id: string
      userId: string
      hash: components['schemas']['Fingerprint']
      expiresAt: number
      usedAt: number | null
    }
    StateStep: {
      id: string
      userId: string
      position: number
      title: string
      description: string
      /** @enum {string} */
      status: 'todo' | 'in_progress' | 'done'
      scheduled_at: string | null
    }
    Journal: {
      requests: components['schemas']['JournalEntry'][]
    }
    /**
     * HTTP Archive 1.2
     * @description An HTTP Archive, written from the HAR 1.2 specification (Jan Odvarko's "HAR 1.2 Spec", also the
     *     W3C Web Performance draft "HTTP Archive (HAR) format"): every object takes the fields the
     *     specification names, and custom fields only when their names start with an underscore.
     */
    Har: {
      log: components['schemas']['HarLog']
    }
    HarLog: {
      /** @constant */
      version: '1.2'
      creator: components['schemas']['HarCreator']
      browser?: components['schemas']['HarCreator']
      pages?: components['schemas']['HarPage'][]
      entries: components['schemas']['HarEntry'][]
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarCreator: {
      name: string
      version: string
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarPage: {
      /** Format: date-time */
      startedDateTime: string
      id: string
      title: string
      pageTimings: {
        onContentLoad?: number
        onLoad?: number
        comment?: string
      } & {
        [key: string]: unknown
      }
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarEntry: {
      pageref?: string
      /** Format: date-time */
      startedDateTime: string
      /** @description The sum of the timings that apply (-1 when none do, as browsers write a failed request). */
      time: number
      request: components['schemas']['HarRequest']
      response: components['schemas']['HarResponse']
      cache: components['schemas']['HarCache']
      timings: components['schemas']['HarTimings']
      serverIPAddress?: string
      connection?: string
      comment?: string
      /** @description The journal entry's `seq` (the mock server's own field). */
      _seq?: number
      /** @description The operationId the call reached (the mock server's own field). */
      _operation?: string
      /** @description The scenario that shaped the answer, if any (the mock server's own field). */
      _scenario?: string
    } & {
      [key: string]: unknown
    }
    HarRequest: {
      method: string
      /** @description The absolute URL, query included. */
      url: string
      httpVersion: string
      cookies: components['schemas']['HarCookie'][]
      headers: components['schemas']['HarNameValue'][]
      queryString: components['schemas']['HarNameValue'][]
      postData?: components['schemas']['HarPostData']
      headersSize: number
      bodySize: number
      comment?: string
      /**
       * @description The request carried a body the server refused to read (a 400, 413 or 415 input refusal), so `postData` is left out; a replay never matches a request with a body against this entry (the mock server's own field).
       * @enum {string}
       */
      _bodyOmitted?: 'refused'
    } & {
      [key: string]: unknown
    }
    HarResponse: {
      /** @description -1 for a request that got no answer (as browsers write a failed request). */
      status: number
      statusText: string
      httpVersion: string
      cookies: components['schemas']['HarCookie'][]
      headers: components['schemas']['HarNameValue'][]
      content: components['schemas']['HarContent']
      redirectURL: string
      headersSize: number
      bodySize: number
      comment?: string
      /** @description Why no answer came (the field browsers write for a failed request). */
      _failureText?: string
    } & {
      [key: string]: unknown
    }
    HarCookie: {
      name: string
      value: string
      path?: string
      domain?: string
      /** Format: date-time */
      expires?: string
      httpOnly?: boolean
      secure?: boolean
      comment?: string
    } & {
      [key: string]: unknown
    }
    /** @description A header or a query-string parameter. */
    HarNameValue: {
      name: string
      value: string
      comment?: string
    } & {
      [key: string]: unknown
    }
    /** @description The request body; `params` (a posted form) and `text` are mutually exclusive. */
    HarPostData: {
      mimeType: string
      params?: ({
        name: string
        value?: string
        fileName?: string
        contentType?: string
        comment?: string
      } & {
        [key: string]: unknown
      })[]
      text?: string
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarContent: {
      size: number
      compression?: number
      mimeType: string
      text?: string
      encoding?: string
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarCache: {
      beforeRequest?: components['schemas']['HarCacheState']
      afterRequest?: components['schemas']['HarCacheState']
      comment?: string
    } & {
      [key: string]: unknown
    }
    HarCacheState:
      | ({
          /** Format: date-time */
          expires?: string
          /** Format: date-time */
          lastAccess: string
          eTag: string
          hitCount: number
          comment?: string
        } & {
          [key: string]: unknown
        })
      | null
    HarTimings: {
      blocked?: number
      dns?: number
      connect?: number
      send: number
      wait: number
      receive: number
      ssl?: number
      comment?: string
    } & {
      [key: string]: unknown
    }
  }
  responses: {
    /** @description A fault of the server's own; a HEAD carries no body. */
    HeadFault: {
      headers: {
        [name: string]: unknown
      }
      content?: never
    }
    /** @description A fault of the server's own (`internal_error`). */
    InternalError: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'internal_error'
        }
      }
    }
    /**
     * @description The server was started with a control token (`--control-token`, `MOCK_CONTROL_TOKEN`) and the
     *     call did not carry it in the `X-Mock-Control-Token` header (`control_token_required`).
     */
    ControlTokenRequired: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'control_token_required'
        }
      }
    }
    /**
     * @description An authorization request the provider cannot send back (no or an unknown `client_id`; a `redirect_uri`
     *     missing, not absolute or not the client's): a page that says so, never a redirect.
     */
    IdpRequestRefused: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'text/html': string
      }
    }
    /** @description The claims of the token's scope (`email` and `email_verified` with `email`, `name` with `profile`). Readable from any origin. */
    IdpUserinfo: {
      headers: {
        'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
        [name: string]: unknown
      }
      content: {
        'application/json': {
          sub: string
          email?: string
          email_verified?: boolean
          name?: string
        }
      }
    }
    /** @description No access token of this provider, or not a live one (RFC 6750 section 3). */
    IdpInvalidToken: {
      headers: {
        'WWW-Authenticate': string
        'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['OAuthError']
      }
    }
    /** @description Any origin may call it, without credentials. */
    IdpPreflight: {
      headers: {
        'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
        'Access-Control-Allow-Methods': string
        'Access-Control-Allow-Headers': string
        [name: string]: unknown
      }
      content?: never
    }
    /**
     * @description The server was started with a control token and the form's `control_token` field did not carry
     *     it (`control_token_required`): whoever cannot drive `/__mock` cannot sign in as anyone here either.
     */
    IdpControlTokenRequired: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'control_token_required'
        }
      }
    }
    /**
     * @description Refused before anything is read or changed: the `Host` header names neither this server's
     *     address, a loopback name (`localhost`, `127.0.0.1`, `::1`) nor a name given with
     *     `--allow-host` (`host_not_allowed`: a page whose name re-binds to this machine); or a write
     *     made by another site, by `Sec-Fetch-Site` (anything but `same-origin` or `none`) or, without
     *     it, by an `Origin` that is not this server's (`cross_site_request`).
     */
    ControlRefused: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'host_not_allowed' | 'cross_site_request'
        }
      }
    }
    /** @description Not parseable (`invalid_json`) or not of its schema (`validation_failed`, with `fields`). */
    BadRequest: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'invalid_json' | 'validation_failed' | 'bad_request'
        }
      }
    }
    /** @description The body is larger than 16 KiB (`payload_too_large`). */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'payload_too_large'
        }
      }
    }
    /**
     * @description The body is not of the documented media type, or is sent in a `Content-Encoding` other than gzip or
     *     deflate (`unsupported_media_type`). A write of the control surface with any body that is not
     *     `application/json` is refused so, whether or not it takes one.
     */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'unsupported_media_type'
        }
      }
    }
  }
  parameters: never
  requestBodies: never
  headers: {
    /** @description Any origin may read the answer; no credentials are taken (no `Access-Control-Allow-Credentials`). */
    AnyOrigin: '*'
    /** @description Token answers are never cached (RFC 6749 section 5.1). */
    NoStore: 'no-store'
    /** @description A probe's answer is never cached, so every probe asks the server itself. */
    ProbeNoStore: 'no-store'
    /** @description Seconds before asking again. */
    ProbeRetryAfter: number
  }
  pathItems: never
}
export type $defs = Record<string, never>
export interface operations {
  resetMock: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': Record<string, never>
      }
    }
    responses: {
      /** @description Reset. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @constant */
            reset: true
          }
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  getClock: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The clock. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Clock']
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  setClock: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json':
          | {
              advance_ms: number
            }
          | {
              /**
               * Format: date-time
               * @description An RFC 3339 date-time without a leap second (the clock has none).
               */
              now: string
            }
      }
    }
    responses: {
      /** @description The clock after the change. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Clock']
        }
      }
      /**
       * @description Not of its schema (`validation_failed`, `invalid_json`, `bad_request`), or a move out of the
       *     years 0000 to 9999 UTC (`clock_out_of_range`): an `advance_ms` past the end of 9999, or a
       *     `now` whose offset takes it out of them (`0000-01-01T00:00:00+00:01`).
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'clock_out_of_range' | 'validation_failed' | 'invalid_json' | 'bad_request'
          }
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  listScenarios: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Available and armed scenarios. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            available: components['schemas']['ScenarioInfo'][]
            armed: components['schemas']['ArmedScenario'][]
          }
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  armScenario: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['ArmRequest']
      }
    }
    responses: {
      /** @description Armed. */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ArmedScenario']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  clearScenarios: {
    parameters: {
      query?: {
        email?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description How many were disarmed. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            cleared: number
          }
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  getMailbox: {
    parameters: {
      query?: {
        email?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The mails. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            messages: components['schemas']['Mail'][]
          }
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getRequests: {
    parameters: {
      query?: {
        email?: string
        since?: string
        /** @description `json` (the default): `{ requests }`; `har`: an HTTP Archive 1.2 of the same entries. */
        format?: 'json' | 'har'
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The journal, as `format` asks. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Journal'] | components['schemas']['Har']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  setServedBuild: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          id: string
        }
      }
    }
    responses: {
      /** @description The build now served as the newest. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            id: string
            timestamp: number
          }
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  getState: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The state. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['MockState']
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getSettings: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The settings. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['MockSettings']
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  showApiDocs: {
    parameters: {
      query?: {
        document?: components['schemas']['DocsDocument']
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The page. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/html': string
        }
      }
      400: components['responses']['BadRequest']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getDocsDocument: {
    parameters: {
      query?: never
      header?: never
      path: {
        document: components['schemas']['DocsDocument']
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The document (`api`, openapi.yaml; `control`, mock-server/control.openapi.yaml). */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            openapi: string
            info: {
              [key: string]: unknown
            }
            paths: {
              [key: string]: unknown
            }
          } & {
            [key: string]: unknown
          }
        }
      }
      400: components['responses']['BadRequest']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getDocsViewer: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The script. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/javascript': string
        }
      }
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  receiveSentryEnvelope: {
    parameters: {
      query?: never
      header?: never
      path: {
        project: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'text/plain': string
      }
    }
    responses: {
      /** @description Received. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            id: string
          }
        }
      }
      /**
       * @description The envelope cannot be read (`envelope_unreadable`): its header line, or an item header, is not
       *     a JSON object (an item's payload may be anything). The body's schema (any text) cannot state the
       *     envelope format, so this is a rule's refusal.
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'envelope_unreadable'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  listSentryEvents: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The events. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            events: components['schemas']['SentryEvent'][]
          }
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  startRecording: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          projectKey: string
          token?: string | null
          userID?: string | null
          metadata?: {
            [key: string]: unknown
          } | null
        }
      }
    }
    responses: {
      /** @description The session and its upload token. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RecorderStart']
        }
      }
      400: components['responses']['BadRequest']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  getRecorderTags: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description No tags. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            tags: {
              [key: string]: unknown
            }[]
          }
        }
      }
      500: components['responses']['InternalError']
    }
  }
  receiveRecorderBatch: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        '*/*': string
      }
    }
    responses: {
      /** @description Received. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description The batch cannot be read (`batch_unreadable`). */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'batch_unreadable'
          }
        }
      }
      /** @description No or unknown upload token (`token_invalid`); the recorder starts a new session. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'token_invalid'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  receiveRecorderImages: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        '*/*': string
      }
    }
    responses: {
      /** @description Received. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  listRecorderSessions: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The sessions. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            sessions: components['schemas']['RecorderSession'][]
          }
        }
      }
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  addIdpAccount: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email: string
          name?: string
        }
      }
    }
    responses: {
      /** @description The account as the provider keeps it; `sub` is the same for an address across resets and restarts. */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['IdpAccount']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  registerIdpClient: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          redirect_uris: components['schemas']['AbsoluteRedirectUri'][]
          public?: boolean
        }
      }
    }
    responses: {
      /** @description The client; its secret is shown here once. */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            client_id: string
            client_secret?: string
            redirect_uris: string[]
            /** @enum {unknown} */
            token_endpoint_auth_method: 'client_secret_basic' | 'none'
          }
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['ControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  getIdpConfiguration: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The discovery document. */
      200: {
        headers: {
          'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OpenIdConfiguration']
        }
      }
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getIdpJwks: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The JWK set. */
      200: {
        headers: {
          'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
          [name: string]: unknown
        }
        content: {
          'application/json': {
            keys: {
              /** @constant */
              kty: 'EC'
              /** @constant */
              crv: 'P-256'
              x: string
              y: string
              kid: string
              /** @constant */
              alg: 'ES256'
              /** @constant */
              use: 'sig'
            }[]
          }
        }
      }
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  showIdpSignIn: {
    parameters: {
      query?: {
        client_id?: string
        redirect_uri?: string
        response_type?: string
        scope?: string
        state?: string
        nonce?: string
        code_challenge?: string
        code_challenge_method?: string
        response_mode?: string
        prompt?: string
        login_hint?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The sign-in form (e-mail, name, and the control token when the server has one); it posts back here. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/html': string
        }
      }
      /** @description Back to the client's `redirect_uri`, with `code` and `state`, or `error`, `error_description` and `state`. */
      302: {
        headers: {
          Location: string
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['IdpRequestRefused']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  submitIdpSignIn: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          request: string
          /** Format: email */
          email: string
          name?: string
          /** @description Required when the server has a control token (the form then asks for it). */
          control_token?: string
        }
      }
    }
    responses: {
      /** @description To the client's `redirect_uri` with `code` and `state` (added to any query it has). */
      302: {
        headers: {
          Location: string
          [name: string]: unknown
        }
        content?: never
      }
      /**
       * @description A `request` the provider does not know, or already answered, or waited too long (a page); or a body
       *     not of its schema (`validation_failed`, `bad_request`).
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/html': string
          'application/json': components['schemas']['Error']
        }
      }
      401: components['responses']['IdpControlTokenRequired']
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  requestIdpToken: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          grant_type?: string
          code?: string
          redirect_uri?: string
          code_verifier?: string
          client_id?: string
          client_secret?: string
        } & {
          [key: string]: string
        }
      }
    }
    responses: {
      /** @description The tokens. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
          [name: string]: unknown
        }
        content: {
          'application/json': {
            access_token: string
            /** @constant */
            token_type: 'Bearer'
            expires_in: number
            /** @description A JWS (ES256) with iss, sub, aud (the client id), exp, iat, auth_time, nonce when one was sent, and email, email_verified and name by scope. */
            id_token: string
            scope: string
          }
        }
      }
      /**
       * @description `invalid_request` (a parameter missing, or two ways of client authentication),
       *     `unsupported_grant_type`, or `invalid_grant` (a code unknown, expired, already used or of another
       *     client; a `redirect_uri` other than the code's; a missing or wrong `code_verifier`).
       */
      400: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description The client could not be authenticated (`invalid_client`); with `WWW-Authenticate` after HTTP Basic. */
      401: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          'Access-Control-Allow-Origin': components['headers']['AnyOrigin']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OAuthError']
        }
      }
      403: components['responses']['ControlRefused']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      500: components['responses']['InternalError']
    }
  }
  preflightIdpToken: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      204: components['responses']['IdpPreflight']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getIdpUserinfo: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      200: components['responses']['IdpUserinfo']
      401: components['responses']['IdpInvalidToken']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  postIdpUserinfo: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      200: components['responses']['IdpUserinfo']
      401: components['responses']['IdpInvalidToken']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  preflightIdpUserinfo: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      204: components['responses']['IdpPreflight']
      403: components['responses']['ControlRefused']
      500: components['responses']['InternalError']
    }
  }
  getLiveness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The process answers. */
      200: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @constant */
            status: 'ok'
          }
        }
      }
      500: components['responses']['InternalError']
    }
  }
  headLiveness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The process answers. */
      200: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          [name: string]: unknown
        }
        content?: never
      }
      500: components['responses']['HeadFault']
    }
  }
  getReadiness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Ready; `checks` names every probe (none for the in-memory store). */
      200: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Readiness']
        }
      }
      500: components['responses']['InternalError']
      /** @description Not ready; `checks` names what is not (a probe, or `server` while it stops). */
      503: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          'Retry-After': components['headers']['ProbeRetryAfter']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Readiness']
        }
      }
    }
  }
  headReadiness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Ready. */
      200: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          [name: string]: unknown
        }
        content?: never
      }
      500: components['responses']['HeadFault']
      /** @description Not ready. */
      503: {
        headers: {
          'Cache-Control': components['headers']['ProbeNoStore']
          'Retry-After': components['headers']['ProbeRetryAfter']
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
}
