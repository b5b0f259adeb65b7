// Generated from mock-server/control.openapi.yaml by scripts/gen-api.ts (npm run gen:api). Do not edit by hand.

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
    /** Back to the seed state (accounts, clock, scenarios, mailbox, journal). */
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
     * The request journal of the product API, oldest first.
     * @description `since` is a `seq` (entries after it) or a date-time (entries at or after it, by the
     *     server's clock). Paths are journaled without their query strings.
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
  '/idp/authorize': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The identity provider's sign-in page. */
    get: operations['showIdpSignIn']
    put?: never
    /** The identity provider signs the person in and sends the browser back with a code. */
    post: operations['submitIdpSignIn']
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
    Error: {
      error?: string
      message?: string
      fields?: {
        [key: string]: string
      }
    }
    Clock: {
      /** Format: date-time */
      now: string
      /** @description How far the server's clock is from real time. */
      offset_ms: number
    }
    /** @enum {string} */
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
    ScenarioInfo: {
      name: components['schemas']['ScenarioName']
      description: string
      /** @description The operationIds whose calls it matches. */
      operations: string[]
    }
    ArmRequest: {
      name: components['schemas']['ScenarioName']
      /**
       * Format: email
       * @description Only calls of this account match (the account named by the body, the bearer token, the refresh token or the session cookie).
       */
      email?: string
      /** @description Only calls of this operationId match. */
      operation?: string
      /** @description How many matching calls it serves (default 1). */
      times?: number
      /** @description Serve every matching call until cleared (overrides `times`). */
      until_cleared?: boolean
      /** @description With `server-error` (default 503). */
      status?: number
      /** @description The `message` of the answer, where the scenario sends one. */
      message?: string
      /** @description With `latency`. */
      delay_ms?: number
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
      status: number
      /** Format: date-time */
      at: string
      email?: string
      /** @description The scenario that answered or shaped this call, if any. */
      scenario?: string
    }
  }
  responses: {
    /** @description Not parseable (`invalid_json`) or not of its schema (`validation_failed`, with `fields`). */
    BadRequest: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error']
      }
    }
    /** @description The body is larger than 16 KiB (`payload_too_large`). */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error']
      }
    }
    /** @description The body is not of the documented media type (`unsupported_media_type`). */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown
      }
      content: {
        'application/json': components['schemas']['Error']
      }
    }
  }
  parameters: never
  requestBodies: never
  headers: never
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
    requestBody?: never
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
              /** Format: date-time */
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
      400: components['responses']['BadRequest']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
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
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
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
    }
  }
  getRequests: {
    parameters: {
      query?: {
        email?: string
        since?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The journal. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            requests: components['schemas']['JournalEntry'][]
          }
        }
      }
      400: components['responses']['BadRequest']
    }
  }
  showIdpSignIn: {
    parameters: {
      query: {
        state: string
        redirect_uri: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A page with a form (e-mail, name) that posts back here. */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/html': string
        }
      }
      400: components['responses']['BadRequest']
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
          /** Format: email */
          email: string
          name?: string
          state: string
          redirect_uri: string
        }
      }
    }
    responses: {
      /** @description To `redirect_uri` with `code` and `state`. */
      302: {
        headers: {
          Location: string
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      413: components['responses']['PayloadTooLarge']
      415: components['responses']['UnsupportedMediaType']
    }
  }
}
