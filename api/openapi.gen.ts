// Generated from api/openapi.yaml by scripts/gen-api.ts (npm run gen:api). Do not edit by hand.

export interface paths {
  '/api/_auth/session': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Read the cookie session.
     * @description `{ user, loggedInAt }` when the session cookie names a live session, `{}` otherwise.
     */
    get: operations['getSession']
    put?: never
    post?: never
    /**
     * End the session on the server.
     * @description Revokes the session named by the cookie (and by the bearer token, when one is sent), with
     *     its whole refresh family, and clears the cookie. Idempotent. Cross-site requests are refused,
     *     except from an origin the server names for its app (`--cors-origin`).
     */
    delete: operations['deleteSession']
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/refresh_token': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Rotate the token pair.
     * @description Every success returns a new refresh token and retires the presented one. Presenting the
     *     immediate parent of the live refresh token within the grace window returns the same live
     *     pair; any other reuse revokes the whole family (`refresh_reused`). Rotation never extends
     *     the family's absolute lifetime (`refresh_expired`).
     */
    post: operations['refreshToken']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/login': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Sign in with e-mail and password.
     * @description An unknown address and a wrong password get the same answer. After 10 consecutive failures
     *     from one client address the account is locked for 15 minutes for that address only, with that
     *     same answer (even to the right password); other addresses sign in as before. After 100 wrong
     *     passwords for one account from all addresses in 24 hours, addresses the account has not signed
     *     in from in the last 30 days get one attempt per two minutes per account: the others are answered
     *     `429 rate_limited` with `retry_after`, before the password is looked at. Unknown addresses are
     *     counted and answered exactly alike. Too many attempts from one client address get
     *     `429 rate_limited` too.
     */
    post: operations['login']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/signup': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Create an account; a one-time code is mailed.
     * @description The same answer whether or not the address is taken: a taken address is mailed an
     *     "account exists" notice instead of a code, and a verified account is never changed. The
     *     mailed code proves the name and password of the sign-up it was sent for and no other. A
     *     second sign-up while a code of the address is alive withdraws the password of both (the
     *     code then signs in without one; the owner sets one through recovery). Within the cooldown
     *     nothing is mailed.
     */
    post: operations['signup']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/otp/send': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Mail a one-time code.
     * @description Always 202 (an unknown address is mailed nothing). A new code invalidates the previous one
     *     of the same purpose. Within the cooldown (30 s) the answer is `429 rate_limited`.
     */
    post: operations['sendOtp']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/otp/verify': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Verify a one-time code.
     * @description `signup` and `login` codes sign in (tokens and cookie); a `reset` code returns a
     *     `reset_token` for `updatePassword`. For an unverified account a `signup` code sets the name
     *     and password of its own sign-up; any other proof (a `login` or `reset` code, external sign-in)
     *     discards the unproven password. Codes are single use, bound to their purpose, valid for
     *     10 minutes; the fifth wrong attempt burns the code (`429 too_many_attempts`). Wrong codes
     *     also count per address and purpose across resends: past 20 in an hour no code is checked
     *     (`429 rate_limited` with the wait), and `attempts_left` never promises more than that
     *     ceiling leaves. Too many checks from one client address also get `429 rate_limited`. An
     *     unknown address answers exactly like a known one.
     */
    post: operations['verifyOtp']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/forgot': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Start password recovery.
     * @description Always 202; a `reset` code is mailed when the account exists (also while it is locked).
     */
    post: operations['forgotPassword']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/update_password': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Set a new password.
     * @description Either `{ reset_token, password }` after a `reset` code, which ends every session of the
     *     account and lifts a lock-out; or, signed in with a bearer token, `{ current_password,
     *     password }`, which ends the account's other sessions.
     */
    post: operations['updatePassword']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/external/authorize': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Start an external sign-in.
     * @description Redirects to the identity provider, which sends the browser back to `redirect_uri` (a
     *     same-origin path, `/callback` by default) with `code` and `state`. Without an identity
     *     provider (production mode with none configured) it answers 404
     *     `external_sign_in_unavailable`, and the runtime configuration says `externalSignIn: false`.
     */
    get: operations['authorizeExternal']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/callback': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Exchange an external sign-in's code and state for a session. */
    post: operations['exchangeCallback']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/me': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The signed-in user. */
    get: operations['getMe']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/process': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The user's enrolment steps, in order. */
    get: operations['getProcess']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/process/steps/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    /** Change a step's status or schedule. */
    patch: operations['updateProcessStep']
    trace?: never
  }
  '/api/help': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The help articles. */
    get: operations['getHelp']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/builds/latest.json': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The id of the newest build that is served.
     * @description Polled by the app every hour; a different id than its own means a new version.
     */
    get: operations['getLatestBuild']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/builds/meta/{id}.json': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The manifest of one build. */
    get: operations['getBuildMeta']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export type webhooks = Record<string, never>
export interface components {
  schemas: {
    /** Format: email */
    Email: string
    /** @description 8 to 128 characters, no composition rules, not on the common-password list. */
    Password: string
    Code: string
    /** @enum {string} */
    Purpose: 'signup' | 'login' | 'reset'
    User: {
      id: string
      email: string
      name: string
    }
    /** @description The legacy field names the client also accepts (docs/behaviour.md, section Stored state). */
    LegacyUser: {
      userId: string
      emailId: string
      name: string
    }
    AnyUser: components['schemas']['User'] | components['schemas']['LegacyUser']
    /** @description One `Set-Cookie` value that sets the session cookie with HttpOnly, SameSite and Path=/. */
    SessionSetCookie: string
    /** @description One `Set-Cookie` value that expires the session cookie, with HttpOnly, SameSite and Path=/. */
    SessionClearCookie: string
    /** @description One `Set-Cookie` value that sets the external sign-in binding with HttpOnly, SameSite and Path=/. */
    ExternalSignInSetCookie: string
    SessionResponse: {
      user?: components['schemas']['AnyUser']
      /** Format: date-time */
      loggedInAt?: string
    }
    LoggedOut: {
      /** @constant */
      loggedOut: true
    }
    RefreshRequest: {
      refresh_token: string
    }
    RefreshResult: {
      success: boolean
      token?: string
      refresh_token?: string
      message?: string
    }
    RefreshFailure: {
      /** @constant */
      success: false
      /** @enum {string} */
      error: 'refresh_invalid' | 'refresh_expired' | 'refresh_reused'
      message: string
    }
    LoginRequest: {
      email: components['schemas']['Email']
      password: string
    }
    SignupRequest: {
      name: string
      email: components['schemas']['Email']
      password: components['schemas']['Password']
    }
    OtpSendRequest: {
      email: components['schemas']['Email']
      purpose: components['schemas']['Purpose']
    }
    OtpVerifyRequest: {
      email: components['schemas']['Email']
      code: components['schemas']['Code']
      purpose: components['schemas']['Purpose']
    }
    ForgotRequest: {
      email: components['schemas']['Email']
    }
    UpdatePasswordRequest:
      | {
          reset_token: string
          password: components['schemas']['Password']
        }
      | {
          current_password: string
          password: components['schemas']['Password']
        }
    CallbackRequest: {
      code: string
      state: string
    }
    SignedInBody: {
      user: components['schemas']['AnyUser']
      /** @description The access token (a JWT). */
      token: string
      /** @description Opaque, single use, rotated on every refresh. */
      refresh_token: string
      /** @description Opaque; stored by the client as `serviceToken`. */
      service_token: string
    }
    ResetTokenBody: {
      /** @description Opaque, single use, valid for 15 minutes. */
      reset_token: string
    }
    Accepted: {
      /** @constant */
      accepted: true
      /** @description Seconds until another code or mail may be sent to this address. */
      resend_after: number
    }
    PasswordUpdated: {
      /** @constant */
      updated: true
    }
    /** @enum {string} */
    StepStatus: 'todo' | 'in_progress' | 'done'
    Step: {
      id: string
      title: string
      description?: string
      status: components['schemas']['StepStatus']
      /** Format: date-time */
      scheduled_at: string | null
    }
    StepPatch: {
      status?: components['schemas']['StepStatus']
      /**
       * Format: date-time
       * @description An RFC 3339 date-time without a leap second (the server keeps none), or null to clear it. One
       *     whose offset takes it out of the years 0000 to 9999 (UTC) is refused `date_out_of_range`.
       */
      scheduled_at?: string | null
    }
    Process: {
      steps: components['schemas']['Step'][]
    }
    Article: {
      id: string
      title: string
      body: string
      tags: string[]
    }
    Help: {
      articles: components['schemas']['Article'][]
    }
    BuildInfo: {
      /** @description The build id, written by the build. */
      id: string
      /** @description When the build was made (ms since the epoch). */
      timestamp: number
    }
    /**
     * @description Every machine-readable code an error of this API carries. Each response names the ones it
     *     can carry; `not_found` and `method_not_allowed` also answer a path or method that no
     *     operation serves, and `request_timeout`, `headers_too_large`, `expectation_failed` and
     *     `bad_request` a request that could not be read at all.
     * @enum {string}
     */
    ErrorCode:
      | 'token_expired'
      | 'token_invalid'
      | 'session_revoked'
      | 'access_denied'
      | 'refresh_invalid'
      | 'refresh_expired'
      | 'refresh_reused'
      | 'invalid_credentials'
      | 'unverified'
      | 'rate_limited'
      | 'invalid_code'
      | 'too_many_attempts'
      | 'reset_token_invalid'
      | 'password_rejected'
      | 'date_out_of_range'
      | 'invalid_callback'
      | 'external_sign_in_unavailable'
      | 'not_found'
      | 'cross_site_request'
      | 'validation_failed'
      | 'invalid_json'
      | 'bad_request'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'method_not_allowed'
      | 'request_timeout'
      | 'headers_too_large'
      | 'expectation_failed'
      | 'server_error'
      | 'session_unavailable'
      | 'internal_error'
      | 'service_unavailable'
    /**
     * @description A path on this site to send the browser back to: printable ASCII, no backslash, no `//` at its
     *     start and no dot segment (`.`, `..`, or their %2E spellings) in its path, so no browser reads
     *     it as another host (`//host`, or `/a/..//host` once dot segments are removed).
     */
    SameSitePath: string
    Error: {
      error?: components['schemas']['ErrorCode']
      /** @description A sentence a person can read. */
      message?: string
      /** @description With `validation_failed`, the reason for each refused field. */
      fields?: {
        [key: string]: string
      }
      /** @description With `invalid_code`. */
      attempts_left?: number
      /** @description With `rate_limited`, seconds. */
      retry_after?: number
    }
    RateLimitedError: {
      /** @constant */
      error: 'rate_limited'
      message: string
      retry_after: number
    }
  }
  responses: {
    /** @description Signed in; the session cookie is set. */
    SignedIn: {
      headers: {
        'Cache-Control': components['headers']['NoStore']
        'Set-Cookie': components['headers']['SessionCookie']
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['SignedInBody']
      }
    }
    /** @description Accepted; whatever is mailed is mailed. */
    Accepted: {
      headers: {
        'Cache-Control': components['headers']['NoStore']
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Accepted']
      }
    }
    /**
     * @description Not parseable (`invalid_json`), not of its schema (`validation_failed`, with `fields`), or not
     *     readable at all (`bad_request`).
     */
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
     * @description The body is not `application/json`, or is sent in a `Content-Encoding` other than gzip or
     *     deflate (`unsupported_media_type`).
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
    /** @description Too many requests (`rate_limited`); `retry_after` seconds, also in the `Retry-After` header. */
    RateLimited: {
      headers: {
        'Retry-After'?: number
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['RateLimitedError']
      }
    }
    /**
     * @description `token_expired` (the access token has expired), `token_invalid` (malformed, badly signed or of
     *     an unknown session), `session_revoked` (its session ended or its refresh family was revoked),
     *     or no `error` when no token was sent. The mock server's scenarios also answer `access_denied`,
     *     and a 401 without a code.
     */
    Unauthorized: {
      headers: {
        'WWW-Authenticate'?: string
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error?: 'token_expired' | 'token_invalid' | 'session_revoked' | 'access_denied'
        }
      }
    }
    /**
     * @description This server has no identity provider for external sign-in (`external_sign_in_unavailable`):
     *     the mock server in production mode, unless a real OpenID provider is configured.
     */
    ExternalSignInUnavailable: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'external_sign_in_unavailable'
        }
      }
    }
    /**
     * @description A fault: injected on demand by the mock server (`server_error`, any 5xx status), a fault
     *     of its own (`500 internal_error`), or `503 service_unavailable` with `Retry-After` while its
     *     database is out of reach.
     */
    Fault: {
      headers: {
        'Retry-After': components['headers']['UnavailableRetryAfter']
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error'] & {
          /** @enum {unknown} */
          error: 'server_error' | 'internal_error' | 'service_unavailable'
        }
      }
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
  }
  parameters: never
  requestBodies: never
  headers: {
    /**
     * @description On `503 service_unavailable` only: the seconds to wait before trying again (the database is
     *     out of reach).
     */
    UnavailableRetryAfter: number
    /** @description Always `no-store`; required on every answer that carries a token, a code or a cookie. */
    NoStore: 'no-store'
    /**
     * @description The session cookie (`sid`, or `__Host-sid` over https), HttpOnly, SameSite=Lax, Path=/; set for
     *     a call from a `--cors-origin`, SameSite=None; Secure; Partitioned instead. Secure whenever the
     *     request came over https.
     */
    SessionCookie: components['schemas']['SessionSetCookie']
    /**
     * @description The session cookie, as `SessionCookie`, on the answers that sign in: required when the body has a
     *     `token`.
     */
    SignInSessionCookie: components['schemas']['SessionSetCookie']
    /**
     * @description Expires the session cookie: `Max-Age=0` (or an `Expires` in the past), with the flags it was set
     *     with. Without it the browser keeps a cookie the server no longer honours.
     */
    ClearSessionCookie: components['schemas']['SessionClearCookie']
    /**
     * @description The browser's binding to the external sign-ins it started (`sso`, or `__Host-sso` over https),
     *     HttpOnly, SameSite, Path=/, for as long as an external sign-in may take.
     */
    ExternalSignInCookie: components['schemas']['ExternalSignInSetCookie']
  }
  pathItems: never
}
export type $defs = Record<string, never>
export interface operations {
  getSession: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The session (empty when signed out). */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['SessionResponse']
        }
      }
      /**
       * @description A fault: the session service is down (`session_unavailable`), or as every call may
       *     answer (`server_error`, `internal_error`, `service_unavailable`).
       */
      '5XX': {
        headers: {
          'Retry-After': components['headers']['UnavailableRetryAfter']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'session_unavailable' | 'server_error' | 'internal_error' | 'service_unavailable'
          }
        }
      }
    }
  }
  deleteSession: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Signed out; the cookie is cleared. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          'Set-Cookie': components['headers']['ClearSessionCookie']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['LoggedOut']
        }
      }
      /** @description A cross-site request (`cross_site_request`), refused without effect. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'cross_site_request'
          }
        }
      }
      '5XX': components['responses']['Fault']
    }
  }
  refreshToken: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['RefreshRequest']
      }
    }
    responses: {
      /**
       * @description `success: true` with both tokens. The client accepts nothing less: `success: false` or a
       *     missing token is a failed refresh (the mock server can answer either on demand).
       */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RefreshResult']
        }
      }
      400: components['responses']['BadRequest']
      /** @description The refresh token is unknown, expired or reused. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RefreshFailure']
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      '5XX': components['responses']['Fault']
    }
  }
  login: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginRequest']
      }
    }
    responses: {
      200: components['responses']['SignedIn']
      400: components['responses']['BadRequest']
      /** @description Wrong credentials, unknown address or locked account (`invalid_credentials`). */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'invalid_credentials'
          }
        }
      }
      /** @description The password is right but the address is not verified yet (`unverified`). */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'unverified'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['RateLimited']
      '5XX': components['responses']['Fault']
    }
  }
  signup: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['SignupRequest']
      }
    }
    responses: {
      202: components['responses']['Accepted']
      /**
       * @description The password policy refused the password (`password_rejected`, with `fields.password`: a
       *     common password, or the e-mail address), or a malformed request (`invalid_json`,
       *     `validation_failed`, `bad_request`).
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'password_rejected' | 'invalid_json' | 'validation_failed' | 'bad_request'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['RateLimited']
      '5XX': components['responses']['Fault']
    }
  }
  sendOtp: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['OtpSendRequest']
      }
    }
    responses: {
      202: components['responses']['Accepted']
      400: components['responses']['BadRequest']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['RateLimited']
      '5XX': components['responses']['Fault']
    }
  }
  verifyOtp: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['OtpVerifyRequest']
      }
    }
    responses: {
      /** @description Signed in (`signup`, `login`) or a reset token (`reset`). */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          'Set-Cookie': components['headers']['SignInSessionCookie']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['SignedInBody'] | components['schemas']['ResetTokenBody']
        }
      }
      /**
       * @description `invalid_code` with `attempts_left` (wrong, expired, used or never sent), or a malformed
       *     request (`invalid_json`, `validation_failed`, `bad_request`).
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'invalid_code' | 'invalid_json' | 'validation_failed' | 'bad_request'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      /**
       * @description The code was burned by too many wrong attempts (`too_many_attempts`; send a new one), or
       *     (`rate_limited`, with `retry_after` seconds, also in the `Retry-After` header) the address and
       *     purpose reached the ceiling of wrong codes, the client its limit of checks, or a `login` code
       *     came from a client address that wrong passwords locked out of the account (the code is then
       *     neither used nor counted).
       */
      429: {
        headers: {
          /** @description With `rate_limited`. */
          'Retry-After'?: number
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'too_many_attempts' | 'rate_limited'
          }
        }
      }
      '5XX': components['responses']['Fault']
    }
  }
  forgotPassword: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['ForgotRequest']
      }
    }
    responses: {
      202: components['responses']['Accepted']
      400: components['responses']['BadRequest']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['RateLimited']
      '5XX': components['responses']['Fault']
    }
  }
  updatePassword: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdatePasswordRequest']
      }
    }
    responses: {
      /** @description The password was changed. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PasswordUpdated']
        }
      }
      /**
       * @description `reset_token_invalid`, `invalid_credentials` (wrong current password), `password_rejected`
       *     (with `fields.password`: a common password, or the e-mail address), `validation_failed`
       *     (with `fields`), `invalid_json` or `bad_request`.
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error:
              | 'reset_token_invalid'
              | 'invalid_credentials'
              | 'password_rejected'
              | 'validation_failed'
              | 'invalid_json'
              | 'bad_request'
          }
        }
      }
      401: components['responses']['Unauthorized']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['RateLimited']
      '5XX': components['responses']['Fault']
    }
  }
  authorizeExternal: {
    parameters: {
      query: {
        state: string
        redirect_uri?: components['schemas']['SameSitePath']
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description To the identity provider's sign-in page. */
      302: {
        headers: {
          Location: string
          'Cache-Control': components['headers']['NoStore']
          'Set-Cookie': components['headers']['ExternalSignInCookie']
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      404: components['responses']['ExternalSignInUnavailable']
      '5XX': components['responses']['Fault']
    }
  }
  exchangeCallback: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CallbackRequest']
      }
    }
    responses: {
      200: components['responses']['SignedIn']
      /**
       * @description An unknown, used or expired code, or a state that does not match it (`invalid_callback`);
       *     or a malformed request (`invalid_json`, `validation_failed`, `bad_request`).
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'invalid_callback' | 'invalid_json' | 'validation_failed' | 'bad_request'
          }
        }
      }
      404: components['responses']['ExternalSignInUnavailable']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      '5XX': components['responses']['Fault']
    }
  }
  getMe: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The user. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['AnyUser']
        }
      }
      401: components['responses']['Unauthorized']
      '5XX': components['responses']['Fault']
    }
  }
  getProcess: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The steps. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Process']
        }
      }
      401: components['responses']['Unauthorized']
      '5XX': components['responses']['Fault']
    }
  }
  updateProcessStep: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['StepPatch']
      }
    }
    responses: {
      /** @description The updated step. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Step']
        }
      }
      /**
       * @description Not parseable (`invalid_json`), not of its schema (`validation_failed`, with `fields`), or a
       *     `scheduled_at` whose offset takes it out of the years 0000 to 9999 UTC (`date_out_of_range`,
       *     with `fields.scheduled_at`), a rule the schema cannot state.
       */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'date_out_of_range' | 'invalid_json' | 'validation_failed' | 'bad_request'
          }
        }
      }
      401: components['responses']['Unauthorized']
      /** @description No such step for this user (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'not_found'
          }
        }
      }
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
      '5XX': components['responses']['Fault']
    }
  }
  getHelp: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The articles. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Help']
        }
      }
      401: components['responses']['Unauthorized']
      '5XX': components['responses']['Fault']
    }
  }
  getLatestBuild: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The newest build. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['BuildInfo']
        }
      }
      /** @description No build is served (the API runs alone) (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'not_found'
          }
        }
      }
      500: components['responses']['InternalError']
    }
  }
  getBuildMeta: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The build's manifest. */
      200: {
        headers: {
          'Cache-Control': components['headers']['NoStore']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['BuildInfo']
        }
      }
      400: components['responses']['BadRequest']
      /** @description No such build (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {unknown} */
            error: 'not_found'
          }
        }
      }
      500: components['responses']['InternalError']
    }
  }
}
